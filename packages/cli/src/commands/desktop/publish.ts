/**
 * `board desktop publish --platform P --version X.Y.Z --notes TEXT FILE…`: an operator command
 * on the server's own storage and database. Beside a running server on the same DATA_DIR it
 * hands the work to the server (publishRun.ts), which answers with the new release at once.
 */
import type { Command } from "commander"

export interface PublishOptions {
  readonly platform: string
  readonly version: string
  readonly notes: string
  readonly force?: boolean
  readonly json?: boolean
  /** No progress bar. */
  readonly quiet?: boolean
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
      '\nExamples:\n  board desktop publish --platform darwin-arm64 --version 1.2.3 --notes "Faster sync" dist/Board-1.2.3-arm64-mac.zip dist/Board-1.2.3-arm64.dmg\n' +
        '  S3_BUCKET=builds board desktop publish --platform darwin-arm64 --version 1.2.4 --notes "Fixes" --force dist/*.zip\n'
    )
    .action((files: Array<string>, _options: PublishOptions, command: Command) =>
      import("./publishRun.ts").then((m) => m.runPublish(files, command.optsWithGlobals<PublishOptions>()))
    )
}
