/**
 * `board desktop publish --platform P --version X.Y.Z --notes TEXT FILE…`: an operator command
 * on the server's own storage and database. Beside a running server on the same DATA_DIR it
 * reaches the embedded database through the server's socket (`layerShared`), so the server
 * answers with the new release at once.
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
import { NodeServices } from "@effect/platform-node"
import type { Command } from "commander"
import { Cause, Effect, Exit, Layer } from "effect"
import * as crypto from "node:crypto"
import { CliExit, exitCodes, loadConfig } from "../../runtime.ts"
import { progressBar } from "./progress.ts"

export interface PublishOptions {
  readonly platform: string
  readonly version: string
  readonly notes: string
  readonly force?: boolean
  readonly json?: boolean
  /** No progress bar. */
  readonly quiet?: boolean
}

/** The S3 store never signs with the server secret, so publishing there must not create one in DATA_DIR. */
const secretLayer = (config: AppConfigValues) =>
  Layer.sync(ServerSecret, () =>
    deriveKeys(
      config.s3 !== undefined ? config.secret ?? crypto.randomBytes(32).toString("hex") : resolveSecret(config.secret, config.dataDir)
    ))

const failureOf = (cause: Cause.Cause<unknown>): CliExit => {
  const e = Cause.squash(cause)
  if (e instanceof InvalidInput) return new CliExit(exitCodes.usage, `board desktop publish: ${e.message}`)
  if (e instanceof Conflict) return new CliExit(exitCodes.error, `board desktop publish: ${e.message}`)
  const message = e instanceof Error ? e.message : String(e)
  return new CliExit(exitCodes.error, `board desktop publish failed: ${message.replace(/\s+/g, " ").trim()}`)
}

const describe = (r: PublishedRelease): string =>
  [
    `published ${r.platform} ${r.version} (${r.publishedAt})`,
    ...r.files.map((f) => `  ${f.name}  ${f.size} bytes  sha256 ${f.sha256}${f.name === r.artifact ? "  (download)" : ""}`),
    ...(r.feed === null ? [] : [`  update feed: ${r.feed}`])
  ].join("\n") + "\n"

export const runPublish = async (files: ReadonlyArray<string>, options: PublishOptions): Promise<void> => {
  const config = loadConfig()
  const input = { platform: options.platform, version: options.version, notes: options.notes, files, force: options.force === true }
  // refuse bad arguments before opening the database or storage
  const checked = await Effect.runPromiseExit(checkPublishInput(input))
  if (Exit.isFailure(checked)) throw failureOf(checked.cause)
  if (config.dataDir === "memory:" && (config.databaseUrl === undefined || config.s3 === undefined)) {
    throw new CliExit(exitCodes.usage, "board desktop publish: DATA_DIR=memory: keeps nothing; use the DATA_DIR (or DATABASE_URL and S3_BUCKET) of the server")
  }
  const bar = options.json === true || options.quiet === true ? undefined : progressBar(process.stderr)
  const base = Layer.mergeAll(Layer.succeed(AppConfig, config), secretLayer(config))
  const database = layerShared(config)
  const services = DesktopReleases.layer.pipe(Layer.provide(BlobsLive), Layer.provide(base), Layer.provideMerge(database))
  const program = Effect.gen(function*() {
    yield* runMigrations()
    const releases = yield* DesktopReleases
    return yield* releases.publish({ ...input, onProgress: bar?.update })
  })
  const exit = await Effect.runPromiseExit(program.pipe(Effect.provide(Layer.mergeAll(services, NodeServices.layer))))
  bar?.done()
  if (Exit.isFailure(exit)) throw failureOf(exit.cause)
  const release = exit.value
  process.stdout.write(options.json === true ? JSON.stringify(release, null, 2) + "\n" : describe(release))
}

const hasOption = (command: Command, long: string) => command.options.some((o) => o.long === long)

export const registerDesktopPublish = (program: Command) => {
  const publish = program
    .command("desktop")
    .description("desktop builds: publish a release for the manifest, the download and the update feed")
    .command("publish")
    .description("upload build files, record the release and make it the latest for its platform")
    .argument("<files...>", "the build files (darwin: a .zip is required; .dmg and .blockmap optional)")
    .requiredOption("--platform <platform>", "platform name, e.g. darwin-arm64")
    .requiredOption("--version <version>", "bare X.Y.Z, e.g. 1.2.3")
    .requiredOption("--notes <text>", "release notes")
    .option("--force", "replace a version that is already published")
  // --json (and --quiet) are the program's global options when it has them
  if (!hasOption(program, "--json")) publish.option("--json", "print the release as JSON")
  return publish
    .addHelpText(
      "after",
      "\nExamples:\n  board desktop publish --platform darwin-arm64 --version 1.2.3 --notes \"Faster sync\" dist/Board-1.2.3-arm64-mac.zip dist/Board-1.2.3-arm64.dmg\n" +
        "  S3_BUCKET=builds board desktop publish --platform darwin-arm64 --version 1.2.4 --notes \"Fixes\" --force dist/*.zip\n"
    )
    .action((files: Array<string>, _options: PublishOptions, command: Command) => runPublish(files, command.optsWithGlobals<PublishOptions>()))
}
