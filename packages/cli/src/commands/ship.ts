/**
 * `board ship --env ENV [--range A..B]`: records a deployment. The commits come from the local
 * `git log` (the range, else HEAD's history, at most DEPLOYMENT_COMMITS_MAX), so a CI job runs one
 * line after its deploy; the server ships every card linked to one of them (docs/forges.md).
 */
import { DEPLOYMENT_COMMITS_MAX } from "@board/core/contract"
import type { Command } from "commander"
import { Effect } from "effect"
import { execFile } from "node:child_process"
import type { App } from "../support/app.ts"
import { BoardApi } from "../support/client.ts"
import { failure, usageError } from "../support/failure.ts"
import { examples } from "../support/format.ts"
import { Lookup } from "../support/lookup.ts"
import { Output } from "../support/output.ts"
import { projectOption } from "./shared.ts"

export interface ShipOptions {
  readonly env: string
  readonly range?: string
  readonly dir?: string
  readonly project?: string
}

/** The commits of `range` (or HEAD's history) in the repository at `dir`, newest first. */
export const gitCommits = (dir: string, range: string | undefined) =>
  Effect.callback<ReadonlyArray<string>, ReturnType<typeof failure>>((resume) => {
    execFile(
      "git",
      ["-C", dir, "log", "--format=%H", `--max-count=${DEPLOYMENT_COMMITS_MAX}`, range ?? "HEAD", "--"],
      { maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) =>
        resume(
          error === null
            ? Effect.succeed(stdout.split("\n").filter((l) => /^[0-9a-f]{7,64}$/.test(l)))
            : Effect.fail(failure(`git log ${range ?? "HEAD"} failed in ${dir}: ${(stderr || error.message).trim()}`))
        )
    )
  })

export const runShip = Effect.fn("ship")(function* (options: ShipOptions) {
  const { client } = yield* BoardApi
  const lookup = yield* Lookup
  const out = yield* Output
  if (options.range !== undefined && !/^[^\s]+\.\.\.?[^\s]+$/.test(options.range))
    return yield* usageError("--range: give A..B (the commits in B that are not in A), e.g. v1.2.0..HEAD")
  const commits = yield* gitCommits(options.dir ?? process.cwd(), options.range)
  const project = yield* lookup.project(options.project)
  const deployment = yield* client.forge.deploy({
    params: { id: project.id },
    payload: { environment: options.env, commits: [...commits] }
  })
  const n = deployment.shippedCardIds.length
  yield* out.message(
    `Recorded a deployment of ${commits.length} commit${commits.length === 1 ? "" : "s"} to ${options.env}: ${n} card${n === 1 ? "" : "s"} shipped.`
  )
  yield* out.result(deployment, () => undefined)
})

export const registerShip = (program: Command, app: App) =>
  program
    .command("ship")
    .description("record a deployment: the cards linked to its commits (from the local git) are shipped")
    .requiredOption("--env <environment>", "where it was deployed, e.g. production")
    .option("--range <A..B>", "the commits deployed, as git names them; default: HEAD's history")
    .option("--dir <path>", "the git repository; default: the current directory")
    .addOption(projectOption())
    .addHelpText(
      "after",
      examples(
        "board ship --env production --range v1.4.0..v1.5.0",
        'board ship --env staging --range "$PREVIOUS_SHA..$GITHUB_SHA" --project Website'
      )
    )
    .action((flags: ShipOptions, cmd: Command) => app.run(cmd, flags, runShip))
