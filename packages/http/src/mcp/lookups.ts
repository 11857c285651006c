/**
 * The names an agent types, turned into ids: a card by its id or its ref (`WEB-12`), a column by
 * its id or its name, a label by its name. Everything here only reads, and only within what the
 * principal can see (membership, narrowed to an OAuth grant's workspaces); access to a project
 * is checked through the core's `Access` before its columns or labels are listed. Writes always
 * go through the core services, which check access again.
 */
// names compare, quote and list as in the natural-language commands: one rule for both
import {
  Access,
  InvalidInput,
  isUuid,
  listOf,
  normalizeName,
  NotFound,
  type Principal,
  quote,
  type WorkspaceNotGranted
} from "@board/core"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"

/** A card ref: project prefix, dash, number (`WEB-12`). */
const CARD_REF = /^([A-Za-z][A-Za-z0-9]*)-(\d+)$/

export interface CardHit {
  readonly id: string
  readonly ref: string
  readonly projectId: string
  readonly projectName: string
}

export interface ColumnRow {
  readonly id: string
  readonly name: string
  readonly position: number
}

export interface LabelRow {
  readonly id: string
  readonly name: string
}

type LookupError = InvalidInput | NotFound | WorkspaceNotGranted

export const makeLookups = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  const access = yield* Access

  /** Projects (alias `p`) of the user's workspaces, narrowed to the grant when there is one. */
  const visible = (principal: Principal) =>
    principal.workspaces === "all"
      ? sql`EXISTS (SELECT 1 FROM workspace_members m WHERE m.workspace_id = p.workspace_id AND m.user_id = ${principal.userId})`
      : sql`EXISTS (SELECT 1 FROM workspace_members m WHERE m.workspace_id = p.workspace_id AND m.user_id = ${principal.userId})
          AND p.workspace_id IN ${sql.in([...principal.workspaces].filter(isUuid))}`

  /** The project must be one the principal may act on (NotFound / WorkspaceNotGranted otherwise). */
  const checkProject = Effect.fnUntraced(function* (principal: Principal, projectId: string) {
    if (!isUuid(projectId)) {
      return yield* new InvalidInput({
        message: `projectId: ${quote(projectId)} is not a project id (a UUID); list_projects shows them`
      })
    }
    yield* access.resolve(principal, "project", projectId)
    return projectId
  })

  const cardsByRef = (principal: Principal, ref: string, n: number, projectId: string | undefined) =>
    sql<{ id: string; ref: string; project_id: string; project_name: string }>`
      SELECT c.id, c.ref, p.id AS project_id, p.name AS project_name
      FROM cards c JOIN projects p ON p.id = c.project_id
      WHERE c.ref_number = ${n} AND upper(c.ref) = ${ref.toUpperCase()} AND ${visible(principal)}
        AND ${projectId === undefined ? sql`TRUE` : sql`p.id = ${projectId}`}
      ORDER BY p.created_at, p.id
      LIMIT 20`.pipe(
      Effect.orDie,
      Effect.map((rows) =>
        rows.map((r): CardHit => ({ id: r.id, ref: r.ref, projectId: r.project_id, projectName: r.project_name }))
      )
    )

  /**
   * The id of the card named by `card` (an id, or a ref unique among the visible projects or
   * within `projectId`). An id is handed on as it is: the service that uses it checks access.
   * `prefer` breaks a tie between several projects (e.g. the project of the other card of a link).
   */
  const cardId = Effect.fnUntraced(function* (
    principal: Principal,
    card: string,
    projectId: string | undefined,
    field = "card",
    prefer?: string
  ): Effect.fn.Return<string, LookupError> {
    const name = card.trim()
    if (isUuid(name)) return name
    const m = CARD_REF.exec(name)
    const n = m === null ? undefined : Number(m[2])
    if (n === undefined || !Number.isSafeInteger(n) || n > 2_147_483_647) {
      return yield* new InvalidInput({
        message: `${field}: ${quote(card)} is neither a card id (a UUID) nor a card ref such as WEB-12`
      })
    }
    if (projectId !== undefined) yield* checkProject(principal, projectId)
    const hits = yield* cardsByRef(principal, name, n, projectId)
    if (hits.length === 1) return hits[0]!.id
    if (hits.length === 0) {
      return yield* new NotFound({
        message:
          projectId === undefined
            ? `card ${name.toUpperCase()} not found in the projects you can see`
            : `card ${name.toUpperCase()} not found in project ${projectId}`
      })
    }
    const preferred = prefer === undefined ? [] : hits.filter((h) => h.projectId === prefer)
    if (preferred.length === 1) return preferred[0]!.id
    return yield* new InvalidInput({
      message:
        `${field}: ${name.toUpperCase()} is ambiguous: ${hits.length} of your projects have a card with this ref ` +
        `(${listOf(hits.map((h) => `${quote(h.projectName)} ${h.projectId}`))}); pass projectId to say which, or use the card id`
    })
  })

  const columnsOf = (projectId: string) =>
    sql<ColumnRow>`SELECT id, name, position FROM board_columns WHERE project_id = ${projectId} ORDER BY position`.pipe(
      Effect.orDie
    )

  const projectName = (projectId: string) =>
    sql<{ name: string }>`SELECT name FROM projects WHERE id = ${projectId}`.pipe(
      Effect.orDie,
      Effect.map((rows) => rows[0]?.name ?? projectId)
    )

  /**
   * The id of the column named by `column` in the project: an id as it is (the service checks
   * it belongs to the project), else the column of that name (case-insensitively).
   */
  const columnId = Effect.fnUntraced(function* (
    principal: Principal,
    projectId: string,
    column: string
  ): Effect.fn.Return<string, LookupError> {
    const name = column.trim()
    if (isUuid(name)) return name
    yield* checkProject(principal, projectId)
    const columns = yield* columnsOf(projectId)
    const wanted = normalizeName(name)
    const found = columns.find((c) => normalizeName(c.name) === wanted)
    if (found !== undefined) return found.id
    const project = yield* projectName(projectId)
    return yield* new InvalidInput({
      message:
        columns.length === 0
          ? `column: project ${quote(project)} has no columns`
          : `column: no column ${quote(name)} in project ${quote(project)}; its columns are ${listOf(columns.map((c) => quote(c.name)))}`
    })
  })

  /** The project's label of this name (compared as the unique index does: lower(name)). */
  const labelByName = (projectId: string, name: string) =>
    sql<LabelRow>`SELECT id, name FROM labels WHERE project_id = ${projectId} AND lower(name) = lower(${name.trim()})`.pipe(
      Effect.orDie,
      Effect.map((rows) => rows[0])
    )

  /** The project of a card the principal may act on. */
  const projectOfCard = (principal: Principal, id: string) =>
    Effect.map(access.resolve(principal, "card", id), (r) => r.projectId!)

  /** Refs of visible cards starting with `prefix` (prompt argument completion), newest first. */
  const refsStartingWith = (principal: Principal, prefix: string) =>
    sql<{ ref: string }>`
      SELECT c.ref FROM cards c JOIN projects p ON p.id = c.project_id
      WHERE upper(c.ref) LIKE ${`${prefix
        .trim()
        .toUpperCase()
        .replace(/[\\%_]/g, "\\$&")}%`} AND ${visible(principal)}
      GROUP BY c.ref ORDER BY max(c.created_at) DESC
      LIMIT 20`.pipe(
      Effect.orDie,
      Effect.map((rows) => rows.map((r) => r.ref))
    )

  return { checkProject, cardId, columnId, columnsOf, labelByName, projectName, projectOfCard, refsStartingWith }
})

export type Lookups = Effect.Success<typeof makeLookups>
