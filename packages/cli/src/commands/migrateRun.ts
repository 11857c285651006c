/** `board migrate`: loaded only when the command runs. */
import { callAdmin, layerOwner, runMigrations } from "@board/core"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Effect, Layer } from "effect"
import { loadConfig, operatorFailure, runOperator, targetFor } from "../support/operatorRuntime.ts"

const command = "board migrate"

/**
 * Applies pending migrations: on PostgreSQL directly (its advisory lock orders concurrent
 * runs), on an embedded database through the server that owns it, or by opening it when no
 * server runs. Never on a data directory it would have to create.
 */
export const runMigrate = async (): Promise<void> => {
  const config = loadConfig()
  const target = targetFor(config, command)
  const ran =
    target.kind === "server"
      ? await callAdmin(target.owner.socket, { op: "migrate" }).catch((e) => {
          throw operatorFailure(command, config, e)
        })
      : await runOperator(
          command,
          config,
          runMigrations().pipe(Effect.provide(Layer.mergeAll(layerOwner(config), NodeServices.layer)), Effect.scoped)
        )
  process.stderr.write(
    ran.length === 0 ? "database is up to date\n" : `applied: ${ran.map(([id, name]) => `${id}_${name}`).join(", ")}\n`
  )
}
