/**
 * The names people type, turned into what the API takes: a card by its ref (`WEB-12`), id or
 * title; a project by name, ref prefix or id (else the default one); a column, label or
 * workspace by name or id. A card ref is resolved by the server (`GET /v1/cards/WEB-12`), the
 * same resolver as the natural-language commands and MCP; boards are fetched once per run.
 */
import { CARD_REF, isUuid, listOf, normalizeName, quote } from "@board/core/contract"
import { Context, Effect, Layer } from "effect"
import type { CardId, ProjectId } from "@board/core/contract"
import { BoardApi } from "./client.ts"
import { apiStatus, type CliFailure, failure, isNotFound, usageError } from "./failure.ts"
import { Settings } from "./settings.ts"
import type { ApiError, BoardView, Card, Column, Label, Project, Workspace } from "./types.ts"

export { isUuid }
/** Names compare as the server compares them (case-insensitively, runs of whitespace as one space). */
export const sameName = (a: string, b: string) => normalizeName(a) === normalizeName(b)
const q = quote
export { listOf }

export type ProjectInfo = Project & { readonly workspaceName: string }
type E = CliFailure | ApiError

export class Lookup extends Context.Service<
  Lookup,
  {
    readonly workspaces: () => Effect.Effect<ReadonlyArray<Workspace>, E>
    /** By name or id; none named: the only workspace. */
    readonly workspace: (spec: string | undefined) => Effect.Effect<Workspace, E>
    /** Every project the key can see, across workspaces. */
    readonly projects: () => Effect.Effect<ReadonlyArray<ProjectInfo>, E>
    /** By name, ref prefix or id; none named: the saved default, else the only project. */
    readonly project: (spec: string | undefined) => Effect.Effect<Project, E>
    readonly board: (projectId: string) => Effect.Effect<BoardView, E>
    /** By ref (`WEB-12`), id or title; `project` narrows where a ref or title is looked for. */
    readonly card: (spec: string, project?: string | undefined) => Effect.Effect<Card, E>
    readonly column: (board: BoardView, spec: string) => Effect.Effect<Column, CliFailure>
    readonly label: (board: BoardView, spec: string) => Effect.Effect<Label, CliFailure>
  }
>()("board/cli/Lookup") {
  static readonly layer = Layer.effect(
    Lookup,
    Effect.gen(function* () {
      const { client } = yield* BoardApi
      const settings = yield* Settings
      const boards = new Map<string, BoardView>()
      let workspaceList: ReadonlyArray<Workspace> | undefined
      let projectList: ReadonlyArray<ProjectInfo> | undefined

      const workspaces = () =>
        workspaceList !== undefined
          ? Effect.succeed(workspaceList)
          : Effect.tap(client.workspaces.list(), (list) =>
              Effect.sync(() => {
                workspaceList = list
              })
            )

      const workspace = Effect.fnUntraced(function* (spec: string | undefined) {
        const all = yield* workspaces()
        if (spec === undefined) {
          if (all.length === 1) return all[0]
          if (all.length === 0)
            return yield* failure("you have no workspace yet; create one with `board workspace create NAME`")
          return yield* usageError(
            `you have ${all.length} workspaces (${listOf(all.map((w) => q(w.name)))}); say which with --workspace NAME`
          )
        }
        const hits = all.filter((w) => w.id === spec.toLowerCase() || sameName(w.name, spec))
        if (hits.length === 1) return hits[0]
        if (hits.length === 0) return yield* failure(`no workspace ${q(spec)}; \`board workspace list\` shows yours`)
        return yield* failure(`${hits.length} workspaces are named ${q(spec)}; use its id (\`board workspace list\`)`)
      })

      const projects = Effect.fnUntraced(function* () {
        if (projectList !== undefined) return projectList
        const list: Array<ProjectInfo> = []
        for (const w of yield* workspaces()) {
          for (const p of yield* client.workspaces.projects({ params: { id: w.id }, query: {} }))
            list.push({ ...p, workspaceName: w.name })
        }
        projectList = list
        return list
      })

      const board = (projectId: string): Effect.Effect<BoardView, E> => {
        // an id the user typed or saved: the server checks it
        const id = projectId as ProjectId
        const cached = boards.get(projectId)
        return cached !== undefined
          ? Effect.succeed(cached)
          : Effect.tap(client.board.board({ params: { projectId: id }, query: {} }), (b) =>
              Effect.sync(() => void boards.set(projectId, b))
            )
      }

      const defaultProject = Effect.fnUntraced(function* () {
        // the saved default belongs to the saved key; another key sees other projects
        const saved = settings.apiKeySource === "config" ? settings.config.project : undefined
        if (saved !== undefined && isUuid(saved)) {
          const found = yield* board(saved).pipe(
            Effect.map((b) => b.project),
            Effect.catchIf(isNotFound, () => Effect.succeed(undefined))
          )
          if (found !== undefined) return found
        }
        const all = yield* projects()
        if (all.length === 1) return all[0] as Project
        if (all.length === 0)
          return yield* failure("you have no project yet; create one with `board project create NAME`")
        return yield* usageError(
          `you have ${all.length} projects (${listOf(all.map((p) => q(p.name)))}); say which with --project NAME`
        )
      })

      const project = Effect.fnUntraced(function* (spec: string | undefined) {
        if (spec === undefined) return yield* defaultProject()
        if (isUuid(spec)) return (yield* board(spec)).project
        const all = yield* projects()
        let hits = all.filter((p) => sameName(p.name, spec))
        if (hits.length === 0) hits = all.filter((p) => p.refPrefix.toLowerCase() === spec.toLowerCase())
        if (hits.length === 1) return hits[0] as Project
        if (hits.length === 0) return yield* failure(`no project ${q(spec)}; \`board project list\` shows yours`)
        return yield* failure(
          `${hits.length} projects are named ${q(spec)} (in ${listOf(hits.map((p) => q(p.workspaceName)))}); use its id (\`board project list\`)`
        )
      })

      /** Among every project the key can see: the server resolves the ref. */
      const cardByRef = (spec: string): Effect.Effect<Card, E> =>
        client.board.getCard({ params: { id: spec } }).pipe(
          Effect.catchIf(isNotFound, () => Effect.fail(failure(`no card ${spec.toUpperCase()} in your projects`))),
          // several of the key's projects have this ref (400, its message names them)
          Effect.catchIf(
            (e) => apiStatus(e) === 400,
            (e) => Effect.fail(usageError(`${(e as { error: string }).error}, or say which with --project NAME`))
          )
        )

      /** In one project: its board, which the command is likely to need anyway. */
      const cardByRefIn = Effect.fnUntraced(function* (spec: string, projectSpec: string) {
        const b = yield* board((yield* project(projectSpec)).id)
        const hit = b.cards.find((c) => c.ref.toUpperCase() === spec.toUpperCase())
        if (hit !== undefined) return hit
        return yield* failure(`no card ${spec.toUpperCase()} in ${q(b.project.name)}`)
      })

      const cardByTitle = Effect.fnUntraced(function* (spec: string, projectSpec: string | undefined) {
        if (spec.trim() === "") return yield* usageError("name a card by its ref (WEB-12), id or title")
        const scope = projectSpec === undefined ? undefined : yield* project(projectSpec)
        const found = (yield* client.board.search({ query: { q: spec.slice(0, 200), limit: 50 } })).filter(
          (c) => scope === undefined || c.projectId === scope.id
        )
        const exact = found.filter((c) => sameName(c.title, spec))
        const hits = exact.length > 0 ? exact : found
        if (hits.length === 1) return hits[0]
        if (hits.length === 0) return yield* failure(`no card ${q(spec)}: name it by its ref (WEB-12) or id`)
        return yield* failure(
          `${q(spec)} matches ${hits.length} cards (${listOf(hits.slice(0, 5).map((c) => `${c.ref} ${q(c.title)}`))}${hits.length > 5 ? ", …" : ""}); name it by its ref`
        )
      })

      const card = Effect.fnUntraced(function* (spec: string, projectSpec?: string | undefined) {
        const s = spec.trim()
        if (isUuid(s)) return yield* client.board.getCard({ params: { id: s as CardId } })
        if (CARD_REF.test(s)) return yield* projectSpec === undefined ? cardByRef(s) : cardByRefIn(s, projectSpec)
        return yield* cardByTitle(s, projectSpec)
      })

      const column = (b: BoardView, spec: string) => {
        const hit = b.columns.find((c) => c.id === spec.toLowerCase()) ?? b.columns.find((c) => sameName(c.name, spec))
        if (hit !== undefined) return Effect.succeed(hit)
        return Effect.fail(
          failure(
            b.columns.length === 0
              ? `${q(b.project.name)} has no columns`
              : `no column ${q(spec)} in ${q(b.project.name)}; its columns are ${listOf(b.columns.map((c) => q(c.name)))}`
          )
        )
      }

      const label = (b: BoardView, spec: string) => {
        const hit = b.labels.find((l) => l.id === spec.toLowerCase()) ?? b.labels.find((l) => sameName(l.name, spec))
        if (hit !== undefined) return Effect.succeed(hit)
        return Effect.fail(
          failure(
            `no label ${q(spec)} in ${q(b.project.name)}${b.labels.length > 0 ? ` (its labels: ${listOf(b.labels.map((l) => q(l.name)))})` : ""}; ` +
              `create it with \`board label create ${q(spec)} --project ${q(b.project.name)}\``
          )
        )
      }

      return Lookup.of({ workspaces, workspace, projects, project, board, card, column, label })
    })
  )
}
