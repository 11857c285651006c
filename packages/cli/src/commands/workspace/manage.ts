/**
 * `board workspace rename|delete` (issue 30): an admin renames a workspace, an owner deletes
 * it. Delete names what will be lost (its projects and their cards) and asks first, or takes `--yes`.
 */
import { Effect } from "effect"
import type { Command } from "commander"
import type { App } from "../../support/app.ts"
import { BoardApi } from "../../support/client.ts"
import { failure, usageError } from "../../support/failure.ts"
import { examples } from "../../support/format.ts"
import { Lookup } from "../../support/lookup.ts"
import { Output } from "../../support/output.ts"
import { ask, stdinIsTerminal } from "../../support/prompt.ts"

export interface WorkspaceManageOptions {
  readonly workspace: string
  readonly name?: string
  readonly yes?: boolean
}

export const runWorkspaceRename = Effect.fn("workspace.rename")(function* (options: WorkspaceManageOptions) {
  const { client } = yield* BoardApi
  const lookup = yield* Lookup
  const out = yield* Output
  const workspace = yield* lookup.workspace(options.workspace)
  const changed = yield* client.workspaces.rename({ params: { id: workspace.id }, payload: { name: options.name! } })
  yield* out.message(`Renamed workspace "${workspace.name}" to "${changed.name}".`)
  yield* out.result(changed, () => changed.id)
})

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`

export const runWorkspaceDelete = Effect.fn("workspace.delete")(function* (options: WorkspaceManageOptions) {
  const { client } = yield* BoardApi
  const lookup = yield* Lookup
  const out = yield* Output
  const workspace = yield* lookup.workspace(options.workspace)
  const projects = [
    ...(yield* client.workspaces.projects({ params: { id: workspace.id }, query: {} })),
    ...(yield* client.workspaces.projects({ params: { id: workspace.id }, query: { archived: "true" } }))
  ]
  let cards = 0
  for (const p of projects) cards += (yield* lookup.board(p.id)).cards.length
  const lost = `${plural(projects.length, "project")} and ${plural(cards, "card")}, with their history, webhooks and intake tokens, and every membership`
  if (options.yes !== true) {
    if (!stdinIsTerminal())
      return yield* usageError(`deleting "${workspace.name}" loses ${lost}, and cannot be undone: confirm with --yes`)
    const answer = yield* ask(`Delete workspace "${workspace.name}": ${lost}? This cannot be undone. [y/N] `)
    if (!/^y(es)?$/i.test(answer)) return yield* failure("not deleted")
  }
  yield* client.workspaces.deleteWorkspace({ params: { id: workspace.id } })
  yield* out.message(`Deleted workspace "${workspace.name}" (${lost}).`)
  yield* out.result(
    { deleted: { id: workspace.id, name: workspace.name, projects: projects.length, cards } },
    () => undefined
  )
})

export const registerWorkspaceManage = (workspace: Command, app: App) => {
  workspace
    .command("rename")
    .description("rename a workspace (admins)")
    .argument("<workspace>", "the workspace's name or id")
    .argument("<name>", "its new name")
    .addHelpText("after", examples('board workspace rename Acme "Acme Inc"'))
    .action((spec: string, name: string, _flags: object, cmd: Command) =>
      app.run(cmd, { workspace: spec, name }, runWorkspaceRename)
    )
  workspace
    .command("delete")
    .description("delete a workspace with everything in it (owners; asks first on a terminal)")
    .argument("<workspace>", "the workspace's name or id")
    .option("-y, --yes", "do not ask; required when stdin is not a terminal")
    .addHelpText("after", examples("board workspace delete Acme", "board workspace delete Acme --yes"))
    .action((spec: string, flags: { yes?: boolean }, cmd: Command) =>
      app.run(cmd, { workspace: spec, ...flags }, runWorkspaceDelete)
    )
}
