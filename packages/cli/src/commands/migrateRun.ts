/** `board migrate`: loaded only when the command runs. */
import { layerShared, runMigrations } from "@board/core"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Effect, Layer } from "effect"
import { loadConfig } from "../support/operatorRuntime.ts"

/** Applies pending migrations, through a running server's socket when it owns DATA_DIR. */
export const runMigrate = async (): Promise<void> => {
  const config = loadConfig()
  const ran = await Effect.runPromise(
    runMigrations().pipe(Effect.provide(Layer.mergeAll(layerShared(config), NodeServices.layer)))
  )
  process.stderr.write(
    ran.length === 0 ? "database is up to date\n" : `applied: ${ran.map(([id, name]) => `${id}_${name}`).join(", ")}\n`
  )
}
