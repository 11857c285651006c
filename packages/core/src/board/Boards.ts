/**
 * A whole board in one response, read in a constant number of queries whatever its size.
 *
 * `json` is what GET /v1/board/{projectId} sends: one statement in which PostgreSQL writes the
 * response's JSON, a few hundred cards per row, so the server neither decodes the rows into objects nor
 * encodes them again; it writes the rows' text as it comes. `get` maps the same board row by row into
 * objects, for callers that need them (the MCP tool); test/board-json.test.ts holds the two to
 * the same bytes.
 */
import { Context, Effect, Layer, Schema, Semaphore } from "effect"
import * as os from "node:os"
import { SqlClient } from "effect/sql"
import type { Board } from "../domain/board.ts"
import { NotFound, type WorkspaceNotGranted } from "../domain/errors.ts"
import type { Principal } from "../domain/Principal.ts"
import { sqlNow } from "../infra/clock.ts"
import { findAll, findOne, statement } from "../infra/statement.ts"
import { Access, checkGrant, reachOf } from "./Access.ts"
import { assigneeOf } from "./assignees.ts"
import {
  archivedBoardJsonByAssigneeSql,
  archivedBoardJsonSql,
  boardJsonByAssigneeSql,
  BoardJsonRow,
  boardJsonSql,
  boardParts,
  eventCursorSql
} from "./boardJson.ts"
import { cardColumn, CardRow, toLabel } from "./cardView.ts"
import { type ColumnRow, columnRowColumns, type ProjectRow, projectRowColumns, toColumn, toProject } from "./rows.ts"

/** A board as clients see it: the type of the domain's schema (`domain/board.ts`). */
export type BoardView = Board

/** The board's cards one by one, in board order, as Boards.get maps them (the JSON read's own reference). */
const cardsSql = statement<{ project: string; now: string }>(
  (p) => `
  SELECT ${cardColumn(p.now, "(row_number() OVER (PARTITION BY c.column_id ORDER BY c.sort_key) - 1)::int")}
  FROM cards c JOIN board_columns col ON col.id = c.column_id
  WHERE c.project_id = ${p.project}::uuid AND c.archived_at IS NULL ORDER BY col.position, c.sort_key`
)

/** The board's cursor, read in a statement of its own (see `get`). */
const cursorSql = statement<{ project: string }>((p) => `SELECT ${eventCursorSql(`${p.project}::uuid`)} AS cursor`)
const CursorRow = Schema.Struct({ cursor: Schema.String })

/**
 * Whole-board queries running at once; the others wait their turn. Each is CPU-bound (PostgreSQL
 * writes the JSON) and builds a result of about 0.6 MB per 1,000 cards in the server: beyond twice
 * the cores, more at once finish no sooner but hold more result sets. The permit covers the query
 * (its result set being built), not the writing of the answer to the client. At 50 connections
 * on a 1,000-card board (2 cores): the same 141 req/s as unbounded, p99 440 against 510-600 ms,
 * highest RSS 270-297 against 348-371 MiB (issue 35).
 */
const BOARD_READS = Math.max(4, 2 * os.availableParallelism())

export class Boards extends Context.Service<
  Boards,
  {
    readonly get: (principal: Principal, projectId: string) => Effect.Effect<BoardView, NotFound | WorkspaceNotGranted>
    /**
     * The BoardView as JSON text, exactly as the HTTP API's Board schema and JSON.stringify write
     * it, in parts to be written in order (their concatenation is the document). Parts, not one
     * string: a joined board is one large object that goes straight to the old generation; the
     * HTTP handler encodes the parts into one buffer of the body's length instead.
     */
    readonly json: (
      principal: Principal,
      projectId: string,
      /** Only the cards assigned to this user (`me`: the caller). */
      assignee?: string | undefined,
      /** The archived cards instead of the live ones. */
      archived?: boolean
    ) => Effect.Effect<ReadonlyArray<string>, NotFound | WorkspaceNotGranted>
  }
>()("board/core/Boards") {
  static readonly layer = Layer.effect(
    Boards,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const access = yield* Access
      const cardsOf = findAll(sql, cardsSql, CardRow)
      const boardRows = findAll(sql, boardJsonSql, BoardJsonRow)
      const boardRowsFor = findAll(sql, boardJsonByAssigneeSql, BoardJsonRow)
      const archivedRows = findAll(sql, archivedBoardJsonSql, BoardJsonRow)
      const archivedRowsFor = findAll(sql, archivedBoardJsonByAssigneeSql, BoardJsonRow)
      const cursorOf = findOne(sql, cursorSql, CursorRow)
      const boardReads = Semaphore.makeUnsafe(BOARD_READS)

      const get = Effect.fn("Boards.get")(function* (principal: Principal, projectId: string) {
        yield* access.resolve(principal, "project", projectId)
        const now = yield* sqlNow
        const [[project], columns, cards, labels, { cursor }] = yield* Effect.all(
          [
            sql<ProjectRow>`
            SELECT ${sql.literal(projectRowColumns)} FROM projects WHERE id = ${projectId}`,
            sql<ColumnRow>`
            SELECT ${sql.literal(columnRowColumns)} FROM board_columns
            WHERE project_id = ${projectId} ORDER BY position`,
            cardsOf({ project: projectId, now }),
            sql<{
              id: string
              project_id: string
              name: string
              color: string | null
              created_at: Date
              updated_at: Date
            }>`
            SELECT id, project_id, name, color, created_at, updated_at FROM labels
            WHERE project_id = ${projectId} ORDER BY lower(name), id`,
            // read in a statement of its own here (the JSON read has it in the board's own
            // snapshot): this view is for callers that do not follow the stream (the MCP tool)
            cursorOf({ project: projectId })
          ],
          { concurrency: "unbounded" }
        ).pipe(Effect.orDie)
        // the project went between the access check and the read
        if (project === undefined) return yield* new NotFound({ message: "project not found" })
        return {
          project: toProject(project),
          columns: columns.map(toColumn),
          cards: cards.map((r) => r.card),
          labels: labels.map((l) =>
            toLabel({
              id: l.id,
              projectId: l.project_id,
              name: l.name,
              color: l.color,
              createdAt: l.created_at,
              updatedAt: l.updated_at
            })
          ),
          eventCursor: cursor
        }
      })

      const json = Effect.fn("Boards.json")(function* (
        principal: Principal,
        projectId: string,
        assignee?: string,
        archived = false
      ) {
        const user = assigneeOf(principal, assignee)
        const now = yield* sqlNow
        const params = { project: projectId, now, user: principal.userId, reach: reachOf(principal) }
        const rows = yield* (
          user === undefined
            ? (archived ? archivedRows : boardRows)(params)
            : (archived ? archivedRowsFor : boardRowsFor)({ ...params, assignee: user })
        ).pipe(Effect.orDie, boardReads.withPermit)
        // the access rule on what the statement read with the board (as access.resolve reads it):
        // no project, or not the caller's, is 404; outside the credential's grant, 404 or 403
        const ends = rows.find((r) => r.col === 0)
        yield* checkGrant(
          principal,
          ends?.workspace_id ?? "",
          ends?.role ?? undefined,
          `project ${projectId}`,
          // as the database writes it (a key's projects are kept so): the path may be in capitals
          projectId.toLowerCase()
        )
        const parts = boardParts(rows)
        if (parts === undefined) return yield* new NotFound({ message: `project ${projectId} not found` })
        return parts
      })

      return Boards.of({ get, json })
    })
  )
}
