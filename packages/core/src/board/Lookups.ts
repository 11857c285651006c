/**
 * The one resolver: what a caller names, turned into ids. A card by its id or its ref (`WEB-12`,
 * case-insensitively), a card by its title, a column or a label by its name, a project by its
 * id (or, for agents, its ref prefix or name: `projectNamed`), the projects a principal can see, the refs starting with a prefix. REST (a card by ref),
 * the natural-language commands and the MCP tools all resolve through here.
 *
 * Every lookup a principal makes goes through the one access rule (`Access`, or its SQL form
 * `visibleTo` for the lists): projects of the workspaces the user is a member of, within an
 * OAuth grant's workspaces. Lookups that take a project (`ProjectRef`) assume the caller got it
 * from `project`, which checked it. Nothing here writes; every change goes through the services.
 */
import { Context, Effect, Layer } from "effect"
import { SqlClient, type Statement } from "effect/sql"
import { InvalidInput, NotFound, type WorkspaceNotGranted } from "../domain/errors.ts"
import type { Principal } from "../domain/Principal.ts"
import { listOf, normalizeName, quote } from "./names.ts"
import { Access, checkGrant, grantCovers, outsideProjects, reachOf, visibleTo } from "./Access.ts"
import { CARD_REF, type CardId, type ColumnId, isUuid, type LabelId, type ProjectId, refNumber } from "../domain/ids.ts"

// The ids a lookup answers are the database's, branded by what they name: what a service takes.
export interface ProjectRef {
  readonly id: ProjectId
  readonly name: string
  readonly workspaceId: string
}

export interface CardHit {
  readonly id: CardId
  readonly ref: string
  readonly title: string
  readonly project: ProjectRef
}

export interface ColumnHit {
  readonly id: ColumnId
  readonly name: string
  readonly position: number
}

export interface LabelHit {
  readonly id: LabelId
  readonly name: string
}

export interface CardRefOptions {
  /** Look only in this project (checked like any access: NotFound, WorkspaceNotGranted). */
  readonly projectId?: string | undefined
  /** Breaks a tie between several projects (e.g. the project of the other card of a link). */
  readonly prefer?: string | undefined
  /** The argument the card was named in, put before an ambiguity (`target: WEB-3 is ambiguous…`). */
  readonly field?: string | undefined
  /** How the caller's front end lets one say which card is meant; the default is the card id. */
  readonly remedy?: string | undefined
}

type Failure = InvalidInput | NotFound | WorkspaceNotGranted

/** At most this many title matches are read: enough to list five and say there are more. */
const TITLE_MATCHES = 6

type ProjectRow = { id: ProjectId; name: string; workspace_id: string }
type CardRow = {
  id: CardId
  ref: string
  title: string
  project_id: string
  project_name: string
  workspace_id: string
}

const toProject = (r: ProjectRow): ProjectRef => ({ id: r.id, name: r.name, workspaceId: r.workspace_id })
const toHit = (r: CardRow): CardHit => ({
  id: r.id,
  ref: r.ref,
  title: r.title,
  project: { id: r.project_id as ProjectId, name: r.project_name, workspaceId: r.workspace_id }
})

const cardRowColumns = "c.id, c.ref, c.title, p.id AS project_id, p.name AS project_name, p.workspace_id"

export class Lookups extends Context.Service<
  Lookups,
  {
    /** The projects the principal can see, oldest first. */
    readonly visibleProjects: (principal: Principal) => Effect.Effect<ReadonlyArray<ProjectRef>>
    /** A project the principal may act on (NotFound / WorkspaceNotGranted otherwise). */
    readonly project: (principal: Principal, id: string) => Effect.Effect<ProjectRef, NotFound | WorkspaceNotGranted>
    /**
     * A project named as agents name it (issue 33): its id, its ref prefix (WEB, as in WEB-12)
     * or its name, case-insensitively, among the projects the principal can see; a prefix or
     * name several of them share is an InvalidInput naming them, as an ambiguous card ref is.
     */
    readonly projectNamed: (principal: Principal, name: string) => Effect.Effect<ProjectRef, Failure>
    /** The project of a card the principal may act on. */
    readonly projectOfCard: (
      principal: Principal,
      cardId: CardId
    ) => Effect.Effect<ProjectId, NotFound | WorkspaceNotGranted>
    /**
     * The card of a ref, among the projects the principal can see (or in `projectId`): unique,
     * or preferred, or an InvalidInput naming the projects; a ref of the user's that only a
     * workspace outside the credential's grant holds is WorkspaceNotGranted, as its id would be.
     */
    readonly cardByRef: (principal: Principal, ref: string, options?: CardRefOptions) => Effect.Effect<CardHit, Failure>
    /**
     * The id of the card named by an id or a ref. An id is handed on as it is: the service that
     * uses it checks access (in the same statement, for the hot reads).
     */
    readonly cardId: (principal: Principal, name: string, options?: CardRefOptions) => Effect.Effect<CardId, Failure>
    /**
     * Cards of a project by title: the exact (normalized, case-insensitive) matches when there
     * are any, otherwise the titles containing the text; at most six, oldest ref first.
     */
    readonly cardsByTitle: (
      project: ProjectRef,
      title: string
    ) => Effect.Effect<{ readonly exact: boolean; readonly cards: ReadonlyArray<CardHit> }>
    /** The project's columns, left to right. */
    readonly columns: (projectId: string) => Effect.Effect<ReadonlyArray<ColumnHit>>
    /** The project's column of this name (case-insensitively), or an InvalidInput listing them. */
    readonly column: (project: ProjectRef, name: string) => Effect.Effect<ColumnHit, InvalidInput>
    /** The project's label of this name, compared as the labels' unique index does: lower(name). */
    readonly labelByName: (projectId: string, name: string) => Effect.Effect<LabelHit | undefined>
    /** Refs of visible cards starting with `prefix` (argument completion), newest first. */
    readonly refsStartingWith: (principal: Principal, prefix: string) => Effect.Effect<Array<string>>
  }
>()("board/core/Lookups") {
  static readonly layer = Layer.effect(
    Lookups,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const access = yield* Access

      const visibleProjects = (principal: Principal) =>
        sql
          .unsafe<ProjectRow>(
            `SELECT p.id, p.name, p.workspace_id FROM projects p
             WHERE ${visibleTo("p.workspace_id", "$1::uuid", "$2", "p.id")}
             ORDER BY p.created_at, p.id`,
            [principal.userId, reachOf(principal)]
          )
          .pipe(
            Effect.orDie,
            Effect.map((rows) => rows.map(toProject))
          )

      const project = Effect.fnUntraced(function* (principal: Principal, id: string) {
        yield* access.resolve(principal, "project", id)
        const [row] = yield* sql<ProjectRow>`SELECT id, name, workspace_id FROM projects WHERE id = ${id}`.pipe(
          Effect.orDie
        )
        // deleted between the check and the read
        if (row === undefined) return yield* new NotFound({ message: `project ${id} not found` })
        return toProject(row)
      })

      const projectNamed = Effect.fnUntraced(function* (
        principal: Principal,
        name: string
      ): Effect.fn.Return<ProjectRef, Failure> {
        const trimmed = name.trim()
        if (isUuid(trimmed)) return yield* project(principal, trimmed)
        const rows = yield* sql
          .unsafe<ProjectRow & { ref_prefix: string }>(
            `SELECT p.id, p.name, p.workspace_id, p.ref_prefix FROM projects p
             WHERE (upper(p.ref_prefix) = upper($3) OR lower(regexp_replace(btrim(p.name), '[[:space:]]+', ' ', 'g')) = $4)
               AND ${visibleTo("p.workspace_id", "$1::uuid", "$2", "p.id")}
             ORDER BY p.created_at, p.id
             LIMIT 20`,
            [principal.userId, reachOf(principal), trimmed, normalizeName(trimmed)]
          )
          .pipe(Effect.orDie)
        // a ref prefix is the sharper name: it wins over a project merely called that
        const byPrefix = rows.filter((r) => r.ref_prefix.toUpperCase() === trimmed.toUpperCase())
        const hits = byPrefix.length > 0 ? byPrefix : rows
        if (hits.length === 1) return toProject(hits[0]!)
        if (hits.length === 0) {
          return yield* new NotFound({
            message: `no project ${quote(trimmed)} (an id, a ref prefix such as WEB, or a name) among the projects you can see`
          })
        }
        return yield* new InvalidInput({
          message: `project ${quote(trimmed)} is ambiguous: ${hits.length} of your projects answer to it (${listOf(
            hits.map((h) => `${quote(h.name)} ${h.id}`)
          )}); use the project id`
        })
      })

      const projectOfCard = (principal: Principal, cardId: CardId) =>
        Effect.map(access.resolve(principal, "card", cardId), (r) => r.projectId! as ProjectId)

      // The cards of a ref in the projects of the user's workspaces, the grant set aside: the
      // grant is applied after, so that a card beyond it is refused as its id would be. The
      // granted ones come first, so the bound never hides one behind cards the grant excludes.
      const memberCardsByRef = (principal: Principal, ref: string, n: number, projectId: string | undefined) =>
        sql
          .unsafe<CardRow>(
            `SELECT ${cardRowColumns}
             FROM cards c JOIN projects p ON p.id = c.project_id
             WHERE c.ref_number = $3 AND upper(c.ref) = $4 AND ${visibleTo("p.workspace_id", "$1::uuid", "$2", "p.id")}
               AND ($5::uuid IS NULL OR p.id = $5::uuid)
             ORDER BY ($6::uuid[] IS NULL OR p.workspace_id = ANY($6::uuid[])) DESC, p.created_at, p.id
             LIMIT 20`,
            [principal.userId, null, n, ref.toUpperCase(), projectId ?? null, reachOf(principal)]
          )
          .pipe(
            Effect.orDie,
            Effect.map((rows) => rows.map(toHit))
          )

      const cardByRef = Effect.fnUntraced(function* (
        principal: Principal,
        ref: string,
        options: CardRefOptions = {}
      ): Effect.fn.Return<CardHit, Failure> {
        const name = ref.trim().toUpperCase()
        const inProject =
          options.projectId === undefined ? undefined : yield* projectNamed(principal, options.projectId)
        const n = refNumber(name)
        const all = n === undefined ? [] : yield* memberCardsByRef(principal, name, n, inProject?.id)
        const hits = all.filter(
          (h) => grantCovers(principal, h.project.workspaceId) && !outsideProjects(principal, h.project.id)
        )
        if (hits.length === 1) return hits[0]!
        if (hits.length === 0) {
          if (all.length > 0) {
            // the user's card, beyond this credential's grant: what its id would answer
            yield* checkGrant(principal, all[0]!.project.workspaceId, "member", `card ${name}`)
          }
          return yield* new NotFound({
            message:
              inProject === undefined
                ? `card ${name} not found in the projects you can see`
                : `card ${name} not found in project ${quote(inProject.name)}`
          })
        }
        const preferred = options.prefer === undefined ? [] : hits.filter((h) => h.project.id === options.prefer)
        if (preferred.length === 1) return preferred[0]!
        return yield* new InvalidInput({
          message:
            `${options.field === undefined ? "" : `${options.field}: `}${name} is ambiguous: ` +
            `${hits.length} of your projects have a card with this ref ` +
            `(${listOf(hits.map((h) => `${quote(h.project.name)} ${h.project.id}`))}); ${options.remedy ?? "use the card id"}`
        })
      })

      const cardId = Effect.fnUntraced(function* (
        principal: Principal,
        name: string,
        options: CardRefOptions = {}
      ): Effect.fn.Return<CardId, Failure> {
        const trimmed = name.trim()
        if (isUuid(trimmed)) return trimmed as CardId
        if (!CARD_REF.test(trimmed)) {
          return yield* new InvalidInput({
            message: `${options.field ?? "card"}: ${quote(name)} is neither a card id (a UUID) nor a card ref such as WEB-12`
          })
        }
        return (yield* cardByRef(principal, trimmed, options)).id
      })

      // Titles compare like `normalizeName`: trimmed, whitespace runs as one space, lower case.
      const normalizedTitle = sql`lower(regexp_replace(btrim(c.title), '[[:space:]]+', ' ', 'g'))`

      const cardsByTitle = Effect.fnUntraced(function* (project: ProjectRef, title: string) {
        const wanted = normalizeName(title)
        const select = (condition: Statement.Fragment) =>
          sql<CardRow>`
            SELECT ${sql.literal(cardRowColumns)}
            FROM cards c JOIN projects p ON p.id = c.project_id
            WHERE c.project_id = ${project.id} AND ${condition}
            ORDER BY c.ref_number
            LIMIT ${TITLE_MATCHES}`.pipe(
            Effect.orDie,
            Effect.map((rows) => rows.map(toHit))
          )
        const exact = yield* select(sql`${normalizedTitle} = lower(${wanted})`)
        if (exact.length > 0) return { exact: true, cards: exact }
        return { exact: false, cards: yield* select(sql`strpos(${normalizedTitle}, lower(${wanted})) > 0`) }
      })

      const columns = (projectId: string) =>
        sql<ColumnHit>`SELECT id, name, position FROM board_columns WHERE project_id = ${projectId} ORDER BY position`.pipe(
          Effect.orDie
        )

      const column = Effect.fnUntraced(function* (project: ProjectRef, name: string) {
        const all = yield* columns(project.id)
        const wanted = normalizeName(name)
        const found = all.find((c) => normalizeName(c.name) === wanted)
        if (found !== undefined) return found
        return yield* new InvalidInput({
          message:
            all.length === 0
              ? `project ${quote(project.name)} has no columns; create one first`
              : `no column ${quote(name.trim())} in project ${quote(project.name)}; its columns are ${listOf(
                  all.map((c) => quote(c.name)),
                  50
                )}`
        })
      })

      const labelByName = (projectId: string, name: string) =>
        sql<LabelHit>`SELECT id, name FROM labels WHERE project_id = ${projectId} AND lower(name) = lower(${name.trim()})`.pipe(
          Effect.orDie,
          Effect.map((rows) => rows[0])
        )

      const refsStartingWith = (principal: Principal, prefix: string) =>
        sql
          .unsafe<{ ref: string }>(
            `SELECT c.ref FROM cards c JOIN projects p ON p.id = c.project_id
             WHERE upper(c.ref) LIKE $3 AND ${visibleTo("p.workspace_id", "$1::uuid", "$2", "p.id")}
             GROUP BY c.ref ORDER BY max(c.created_at) DESC
             LIMIT 20`,
            [
              principal.userId,
              reachOf(principal),
              `${prefix
                .trim()
                .toUpperCase()
                .replace(/[\\%_]/g, "\\$&")}%`
            ]
          )
          .pipe(
            Effect.orDie,
            Effect.map((rows) => rows.map((r) => r.ref))
          )

      return Lookups.of({
        visibleProjects,
        project,
        projectNamed,
        projectOfCard,
        cardByRef,
        cardId,
        cardsByTitle,
        columns,
        column,
        labelByName,
        refsStartingWith
      })
    })
  )
}
