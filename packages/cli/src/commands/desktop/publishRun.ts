/**
 * `board desktop publish --platform P --version X.Y.Z --notes TEXT FILE…`: an operator command
 * on the server's own storage and database. Beside a running server on the same embedded
 * DATA_DIR it hands the work to the server (its admin channel), which stores the files where it
 * serves them and answers with the new release at once. Loaded only when the command runs.
 */
import {
  type AppConfigValues,
  AppConfig,
  BlobsLive,
  callAdmin,
  checkFileStore,
  checkPublishInput,
  DesktopReleases,
  deriveKeys,
  describeFiles,
  layerOwner,
  type PublishedRelease,
  resolveSecret,
  runMigrations,
  ServerSecret
} from "@board/core"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Effect, Layer } from "effect"
import * as crypto from "node:crypto"
import * as path from "node:path"
import { loadConfig, operatorFailure, runOperator, targetFor } from "../../support/operatorRuntime.ts"
import { CliExit, exitCodes } from "../../support/runtime.ts"
import { progressBar } from "./progress.ts"

import type { PublishOptions } from "./publish.ts"

const command = "board desktop publish"
// bad arguments and a release that exists already are the caller's to fix
const usageTags = ["InvalidInput"]

/** The S3 store never signs with the server secret, so publishing there must not create one in DATA_DIR. */
const secretLayer = (config: AppConfigValues) =>
  Layer.sync(ServerSecret, () =>
    deriveKeys(
      config.s3 !== undefined
        ? (config.secret ?? crypto.randomBytes(32).toString("hex"))
        : resolveSecret(config.secret, config.dataDir)
    )
  )

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
    // the server may run elsewhere in the file system: it gets paths that do not depend on a cwd
    files: files.map((f) => path.resolve(f)),
    force: options.force === true
  }
  // refuse bad arguments before opening the database or storage
  await runOperator(command, config, checkPublishInput(input), usageTags)
  const target = targetFor(config, command)
  if (config.dataDir === "memory:" && config.s3 === undefined) {
    throw new CliExit(
      exitCodes.usage,
      `${command}: DATA_DIR=memory: keeps nothing; use the DATA_DIR (or DATABASE_URL and S3_BUCKET) of the server`
    )
  }
  const bar = options.json === true || options.quiet === true ? undefined : progressBar(process.stderr)
  let release: PublishedRelease
  if (target.kind === "server") {
    const answer = await callAdmin(
      target.owner.socket,
      { op: "publish", ...input, store: describeFiles(config) },
      bar?.update
    ).catch((e) => {
      bar?.done()
      throw operatorFailure(command, config, e, usageTags)
    })
    process.stderr.write(`${command}: files: ${answer.files} (the server's store)\n`)
    release = answer.release
  } else {
    process.stderr.write(`${command}: files: ${describeFiles(config)}\n`)
    if (target.kind === "postgres") {
      // the server may keep its files elsewhere: never publish files it cannot serve (checked
      // before the secret or the file store could create anything under DATA_DIR)
      const check = Effect.andThen(runMigrations(), checkFileStore(config, command))
      await runOperator(
        command,
        config,
        check.pipe(Effect.provide(Layer.mergeAll(layerOwner(config), NodeServices.layer)), Effect.scoped)
      )
    }
    const base = Layer.mergeAll(Layer.succeed(AppConfig, config), secretLayer(config))
    const services = DesktopReleases.layer.pipe(
      Layer.provide(BlobsLive),
      Layer.provide(base),
      Layer.provideMerge(layerOwner(config))
    )
    const program = Effect.gen(function* () {
      yield* runMigrations()
      const releases = yield* DesktopReleases
      return yield* releases.publish({ ...input, onProgress: bar?.update })
    })
    release = await runOperator(
      command,
      config,
      program.pipe(Effect.provide(Layer.mergeAll(services, NodeServices.layer)), Effect.scoped),
      usageTags
    ).finally(() => bar?.done())
  }
  bar?.done()
  process.stdout.write(options.json === true ? `${JSON.stringify(release, null, 2)}\n` : describe(release))
}
