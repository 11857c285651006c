/** `board repo connect|list|remove`: forge repositories whose pull requests link to a project's cards. */
import { forgeProviders } from "@board/core/contract"
import { type Command, Option } from "commander"
import { Effect } from "effect"
import type { App } from "../../support/app.ts"
import { BoardApi } from "../../support/client.ts"
import { usageError } from "../../support/failure.ts"
import { examples } from "../../support/format.ts"
import { isUuid, Lookup } from "../../support/lookup.ts"
import { Output, table } from "../../support/output.ts"
import { projectOption } from "../shared.ts"

export interface RepoConnectOptions {
  readonly name: string
  readonly provider: (typeof forgeProviders)[number]
  readonly project?: string
}

export const runRepoConnect = Effect.fn("repo.connect")(function* (options: RepoConnectOptions) {
  const { client } = yield* BoardApi
  const lookup = yield* Lookup
  const out = yield* Output
  const project = yield* lookup.project(options.project)
  const repo = yield* client.forge.connect({
    params: { id: project.id },
    payload: { provider: options.provider, name: options.name }
  })
  yield* out.message(
    `Connected ${repo.provider} repository ${repo.name} to ${project.name}. In its webhook settings, set\n` +
      `  Payload URL:  ${repo.webhookUrl}\n  Content type: application/json\n  Secret:       ${repo.webhookSecret}\n` +
      "The secret is shown only this once. docs/forges.md lists the events to send."
  )
  yield* out.result(repo, () => repo.webhookSecret)
})

export interface RepoListOptions {
  readonly project?: string
}

export const runRepoList = Effect.fn("repo.list")(function* (options: RepoListOptions) {
  const { client } = yield* BoardApi
  const lookup = yield* Lookup
  const out = yield* Output
  const project = yield* lookup.project(options.project)
  const repos = yield* client.forge.repositories({ params: { id: project.id } })
  if (repos.length === 0 && !out.json) return yield* out.message(`No repositories connected to ${project.name}.`)
  yield* out.result(repos, () =>
    table(
      repos.map((r) => [r.provider, r.name, r.webhookUrl, out.style.dim(r.id)]),
      out.style,
      ["FORGE", "REPOSITORY", "WEBHOOK URL", "ID"]
    )
  )
})

export const runRepoRemove = Effect.fn("repo.remove")(function* (options: { readonly id: string }) {
  const { client } = yield* BoardApi
  const out = yield* Output
  if (!isUuid(options.id)) return yield* usageError("give the repository's id (`board repo list` shows them)")
  yield* client.forge.disconnect({ params: { id: options.id } })
  yield* out.message("Removed: its forge's deliveries are refused from now on.")
  yield* out.result({ removed: { id: options.id } }, () => undefined)
})

export const registerRepo = (program: Command, app: App) => {
  const repo = program
    .command("repo")
    .description("connect forge repositories (GitHub, GitLab, Gitea, Forgejo): their pull requests link to cards")
    .addHelpText(
      "after",
      examples("board repo connect acme/web --provider github", "board repo list", "board repo remove ID")
    )
  repo
    .command("connect")
    .description("connect a repository to a project; prints the webhook URL and secret (shown once)")
    .argument("<name>", "owner/repo, or a GitLab path (group/sub/project)")
    .addOption(new Option("--provider <forge>", "the forge").choices(forgeProviders).default("github"))
    .addOption(projectOption())
    .addHelpText(
      "after",
      examples("board repo connect acme/web", "board repo connect acme/platform/web --provider gitlab")
    )
    .action((name: string, flags: Omit<RepoConnectOptions, "name">, cmd: Command) =>
      app.run(cmd, { ...flags, name }, runRepoConnect)
    )
  repo
    .command("list")
    .alias("ls")
    .description("list a project's repositories (never their secrets)")
    .addOption(projectOption())
    .addHelpText("after", examples("board repo list --project Website", "board repo list --json"))
    .action((flags: RepoListOptions, cmd: Command) => app.run(cmd, flags, runRepoList))
  repo
    .command("remove")
    .alias("rm")
    .description("disconnect a repository")
    .argument("<id>", "the repository's id, from `board repo list`")
    .addHelpText("after", examples("board repo remove 0b6c2f1e-5d4a-4c3b-9a8f-7e6d5c4b3a21"))
    .action((id: string, _flags: object, cmd: Command) => app.run(cmd, { id }, runRepoRemove))
  return repo
}
