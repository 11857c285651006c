/**
 * `board project rename|archive|restore|delete` (issue 30): an admin's changes to a project.
 * A project is named as everywhere (name, ref prefix or id); restore also finds archived ones.
 * Delete names what will be lost (its cards) and asks first, or takes `--yes`.
 */
import { Effect } from "effect"
import type { Command } from "commander"
import type { ProjectId } from "@board/core/contract"
import type { App } from "../../support/app.ts"
import { BoardApi } from "../../support/client.ts"
import { failure, usageError } from "../../support/failure.ts"
import { examples } from "../../support/format.ts"
import { isUuid, Lookup, sameName } from "../../support/lookup.ts"
import { Output } from "../../support/output.ts"
import { ask, stdinIsTerminal } from "../../support/prompt.ts"

export interface ProjectManageOptions {
  readonly project: string
  readonly name?: string
  readonly yes?: boolean
}

/** A project by id, name or ref prefix, among the live ones or (`archived`) the archived ones. */
const findProject = Effect.fnUntraced(function* (spec: string, archived: boolean) {
  const { client } = yield* BoardApi
  const lookup = yield* Lookup
  if (isUuid(spec)) return yield* client.workspaces.project({ params: { id: spec.toLowerCase() as ProjectId } })
  if (!archived) return yield* lookup.project(spec)
  const all = []
  for (const w of yield* lookup.workspaces())
    all.push(...(yield* client.workspaces.projects({ params: { id: w.id }, query: { archived: "true" } })))
  let hits = all.filter((p) => sameName(p.name, spec))
  if (hits.length === 0) hits = all.filter((p) => p.refPrefix.toLowerCase() === spec.toLowerCase())
  if (hits.length === 1) return hits[0]!
  if (hits.length === 0)
    return yield* failure(`no archived project "${spec}"; \`board project list --archived\` shows them`)
  return yield* failure(`${hits.length} archived projects are named "${spec}"; use its id`)
})

export const runProjectRename = Effect.fn("project.rename")(function* (options: ProjectManageOptions) {
  const { client } = yield* BoardApi
  const out = yield* Output
  const project = yield* findProject(options.project, false)
  const changed = yield* client.workspaces.updateProject({
    params: { id: project.id },
    payload: { name: options.name! }
  })
  yield* out.message(
    `Renamed "${project.name}" to "${changed.name}" (its cards keep their refs, ${changed.refPrefix}-…).`
  )
  yield* out.result(changed, () => changed.id)
})

const setArchived = (archived: boolean) =>
  Effect.fn(archived ? "project.archive" : "project.restore")(function* (options: ProjectManageOptions) {
    const { client } = yield* BoardApi
    const out = yield* Output
    const project = yield* findProject(options.project, !archived)
    const changed = yield* client.workspaces.updateProject({ params: { id: project.id }, payload: { archived } })
    yield* out.message(
      archived
        ? `Archived "${changed.name}": it leaves the project list and its board only reads. Undo: board project restore "${changed.name}"`
        : `Restored "${changed.name}": it is back in the project list and takes changes again.`
    )
    yield* out.result(changed, () => changed.id)
  })
export const runProjectArchive = setArchived(true)
export const runProjectRestore = setArchived(false)

export const runProjectDelete = Effect.fn("project.delete")(function* (options: ProjectManageOptions) {
  const { client } = yield* BoardApi
  const lookup = yield* Lookup
  const out = yield* Output
  // a live project by name first; an archived one can be deleted too
  const project = yield* findProject(options.project, false).pipe(
    Effect.catchTag("CliFailure", (e) => findProject(options.project, true).pipe(Effect.mapError(() => e)))
  )
  const cards = (yield* lookup.board(project.id)).cards.length
  const lost = `${cards} card${cards === 1 ? "" : "s"} with their comments and history`
  if (options.yes !== true) {
    if (!stdinIsTerminal())
      return yield* usageError(`deleting "${project.name}" loses ${lost} and cannot be undone: confirm with --yes`)
    const answer = yield* ask(`Delete project "${project.name}" and its ${lost}? This cannot be undone. [y/N] `)
    if (!/^y(es)?$/i.test(answer)) return yield* failure("not deleted")
  }
  yield* client.workspaces.deleteProject({ params: { id: project.id } })
  yield* out.message(`Deleted project "${project.name}" (${lost}).`)
  yield* out.result({ deleted: { id: project.id, name: project.name, cards } }, () => undefined)
})

export const registerProjectManage = (project: Command, app: App) => {
  project
    .command("rename")
    .description("rename a project (admins); its card refs keep their prefix")
    .argument("<project>", "the project's name, ref prefix or id")
    .argument("<name>", "its new name")
    .addHelpText("after", examples('board project rename Website "Web site"'))
    .action((spec: string, name: string, _flags: object, cmd: Command) =>
      app.run(cmd, { project: spec, name }, runProjectRename)
    )
  project
    .command("archive")
    .description("archive a project (admins): it leaves the list and its board only reads")
    .argument("<project>", "the project's name, ref prefix or id")
    .addHelpText("after", examples("board project archive Website"))
    .action((spec: string, _flags: object, cmd: Command) => app.run(cmd, { project: spec }, runProjectArchive))
  project
    .command("restore")
    .description("restore an archived project (admins)")
    .argument("<project>", "the archived project's name, ref prefix or id")
    .addHelpText("after", examples("board project restore Website"))
    .action((spec: string, _flags: object, cmd: Command) => app.run(cmd, { project: spec }, runProjectRestore))
  project
    .command("delete")
    .description("delete a project with its cards and history (admins; asks first on a terminal)")
    .argument("<project>", "the project's name, ref prefix or id")
    .option("-y, --yes", "do not ask; required when stdin is not a terminal")
    .addHelpText("after", examples("board project delete Website", "board project delete Website --yes"))
    .action((spec: string, flags: { yes?: boolean }, cmd: Command) =>
      app.run(cmd, { project: spec, ...flags }, runProjectDelete)
    )
}
