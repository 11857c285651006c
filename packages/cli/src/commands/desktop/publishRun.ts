/**
 * `board desktop publish --platform P --version X.Y.Z --notes TEXT FILE…`: an operator command
 * on the server's own storage and database. Beside a running server on the same DATA_DIR it
 * reaches the embedded database through the server's socket (`layerShared`), so the server
 * answers with the new release at once. Loaded only when the command runs.
 */
import {
  type AppConfigValues,
  AppConfig,
  BlobsLive,
  checkPublishInput,
  Conflict,
  DesktopReleases,
  deriveKeys,
  InvalidInput,
  layerShared,
  type PublishedRelease,
  resolveSecret,
  runMigrations,
  ServerSecret
} from "@board/core"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Cause, Effect, Exit, Layer } from "effect"
import * as crypto from "node:crypto"
import { loadConfig } from "../../support/operatorRuntime.ts"
import { CliExit, exitCodes } from "../../support/runtime.ts"
import { progressBar } from "./progress.ts"

import type { PublishOptions } from "./publish.ts"

/** The S3 store never signs with the server secret, so publishing there must not create one in DATA_DIR. */
const secretLayer = (config: AppConfigValues) =>
  Layer.sync(ServerSecret, () =>
    deriveKeys(
      config.s3 !== undefined
        ? (config.secret ?? crypto.randomBytes(32).toString("hex"))
        : resolveSecret(config.secret, config.dataDir)
    )
  )

const failureOf = (cause: Cause.Cause<unknown>): CliExit => {
  const e = Cause.squash(cause)
  if (e instanceof InvalidInput) return new CliExit(exitCodes.usage, `board desktop publish: ${e.message}`)
  if (e instanceof Conflict) return new CliExit(exitCodes.error, `board desktop publish: ${e.message}`)
  const message = e instanceof Error ? e.message : String(e)
  return new CliExit(exitCodes.error, `board desktop publish failed: ${message.replace(/\s+/g, " ").trim()}`)
}

const describe = (r: PublishedRelease): string =>
  `${[
    `published ${r.platform} ${r.version} (${r.publishedAt})`,
    ...r.files.map(
      (f) => `  ${f.name}  ${f.size} bytes  sha256 ${f.sha256}${f.name === r.artifact ? "  (download)" : ""}`
    ),
    ...(r.feed === null ? [] : [`  update feed: ${r.feed}`])
  ].join("\n")}\n`

export const runPublish = async (files: ReadonlyArray<string>, options: PublishOptions): Promise<void> => {
  const config = loadConfig()
  const input = {
    platform: options.platform,
    version: options.version,
    notes: options.notes,
    files,
    force: options.force === true
  }
  // refuse bad arguments before opening the database or storage
  const checked = await Effect.runPromiseExit(checkPublishInput(input))
  if (Exit.isFailure(checked)) throw failureOf(checked.cause)
  if (config.dataDir === "memory:" && (config.databaseUrl === undefined || config.s3 === undefined)) {
    throw new CliExit(
      exitCodes.usage,
      "board desktop publish: DATA_DIR=memory: keeps nothing; use the DATA_DIR (or DATABASE_URL and S3_BUCKET) of the server"
    )
  }
  const bar = options.json === true || options.quiet === true ? undefined : progressBar(process.stderr)
  const base = Layer.mergeAll(Layer.succeed(AppConfig, config), secretLayer(config))
  const database = layerShared(config)
  const services = DesktopReleases.layer.pipe(
    Layer.provide(BlobsLive),
    Layer.provide(base),
    Layer.provideMerge(database)
  )
  const program = Effect.gen(function* () {
    yield* runMigrations()
    const releases = yield* DesktopReleases
    return yield* releases.publish({ ...input, onProgress: bar?.update })
  })
  const exit = await Effect.runPromiseExit(program.pipe(Effect.provide(Layer.mergeAll(services, NodeServices.layer))))
  bar?.done()
  if (Exit.isFailure(exit)) throw failureOf(exit.cause)
  const release = exit.value
  process.stdout.write(options.json === true ? `${JSON.stringify(release, null, 2)}\n` : describe(release))
}
