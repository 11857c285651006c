/**
 * Read-only lookups of the command executor: which projects a principal can see, and the ids
 * behind the names typed in a command (card refs and titles, columns, labels). Nothing here
 * writes; every change goes through the board services.
 *
 * Visibility is the one of `Access`: projects of workspaces the user is a member of, narrowed to
 * an OAuth grant's workspaces when the principal carries one. Lookups by project id assume the
 * caller has already established that the project is visible.
 */
import { Effect } from "effect"
import type { SqlClient, Statement } from "effect/sql"
import type { Principal } from "../domain/Principal.ts"
import { isUuid, normalizeName, refNumber } from "./execMatch.ts"

export interface ProjectRef {
  readonly id: string
  readonly name: string
  readonly workspaceId: string
}

export interface CardHit {
  readonly id: string
  readonly ref: string
  readonly title: string
  readonly project: ProjectRef
}

export interface ColumnHit {
  readonly id: string
  readonly name: string
  readonly position: number
}

export interface LabelHit {
  readonly id: string
  readonly name: string
}

/** At most this many title matches are read: enough to list five and say there are more. */
const TITLE_MATCHES = 6

type ProjectRow = { id: string; name: string; workspace_id: string }
type CardRow = {
  id: string
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
  project: { id: r.project_id, name: r.project_name, workspaceId: r.workspace_id }
})

export const makeLookups = (sql: SqlClient.SqlClient) => {
  /** Membership of the user, narrowed to the grant's workspaces (`p` is the projects alias). */
  const visible = (principal: Principal) =>
    principal.workspaces === "all"
      ? sql`EXISTS (SELECT 1 FROM workspace_members m WHERE m.workspace_id = p.workspace_id AND m.user_id = ${principal.userId})`
      : sql`EXISTS (SELECT 1 FROM workspace_members m WHERE m.workspace_id = p.workspace_id AND m.user_id = ${principal.userId})
          AND p.workspace_id IN ${sql.in([...principal.workspaces].filter(isUuid))}`

  // Titles compare like `normalizeName`: trimmed, whitespace runs as one space, lower case.
  const normalizedTitle = sql`lower(regexp_replace(btrim(c.title), '[[:space:]]+', ' ', 'g'))`

  return {
    visibleProjects: (principal: Principal): Effect.Effect<ReadonlyArray<ProjectRef>> =>
      sql<ProjectRow>`
        SELECT p.id, p.name, p.workspace_id FROM projects p
        WHERE ${visible(principal)}
        ORDER BY p.created_at, p.id`.pipe(
        Effect.orDie,
        Effect.map((rows) => rows.map(toProject))
      ),

    project: (id: string): Effect.Effect<ProjectRef | undefined> =>
      sql<ProjectRow>`SELECT p.id, p.name, p.workspace_id FROM projects p WHERE p.id = ${id}`.pipe(
        Effect.orDie,
        Effect.map((rows) => (rows[0] === undefined ? undefined : toProject(rows[0])))
      ),

    /** Cards with this ref (case-insensitively) in the visible projects, or in `projectId` only. */
    cardsByRef: (
      principal: Principal,
      ref: string,
      projectId: string | undefined
    ): Effect.Effect<ReadonlyArray<CardHit>> => {
      const n = refNumber(ref)
      if (n === undefined) return Effect.succeed([])
      return sql<CardRow>`
        SELECT c.id, c.ref, c.title, p.id AS project_id, p.name AS project_name, p.workspace_id
        FROM cards c JOIN projects p ON p.id = c.project_id
        WHERE c.ref_number = ${n} AND upper(c.ref) = ${ref.toUpperCase()} AND ${visible(principal)}
          AND ${projectId === undefined ? sql`TRUE` : sql`p.id = ${projectId}`}
        ORDER BY p.created_at, p.id
        LIMIT 20`.pipe(
        Effect.orDie,
        Effect.map((rows) => rows.map(toHit))
      )
    },

    /**
     * Cards of a project by title: the exact (normalized, case-insensitive) matches when there
     * are any, otherwise the titles containing the text; at most six, oldest ref first.
     */
    cardsByTitle: (
      project: ProjectRef,
      title: string
    ): Effect.Effect<{ readonly exact: boolean; readonly cards: ReadonlyArray<CardHit> }> =>
      Effect.gen(function* () {
        const wanted = normalizeName(title)
        const select = (condition: Statement.Fragment) =>
          sql<CardRow>`
            SELECT c.id, c.ref, c.title, p.id AS project_id, p.name AS project_name, p.workspace_id
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
      }),

    /** The project's columns, left to right. */
    columns: (projectId: string): Effect.Effect<ReadonlyArray<ColumnHit>> =>
      sql<ColumnHit>`SELECT id, name, position FROM board_columns WHERE project_id = ${projectId} ORDER BY position`.pipe(
        Effect.orDie
      ),

    /** The project's label of this name, compared as the labels' unique index does: lower(name). */
    labelByName: (projectId: string, name: string): Effect.Effect<LabelHit | undefined> =>
      sql<LabelHit>`SELECT id, name FROM labels WHERE project_id = ${projectId} AND lower(name) = lower(${name.trim()})`.pipe(
        Effect.orDie,
        Effect.map((rows) => rows[0])
      )
  }
}

export type Lookups = ReturnType<typeof makeLookups>
