/**
 * The card's two reads by id, each one statement: several cards for `load` (no access check:
 * callers have checked), and one card's JSON text with its workspace and the caller's role for `get` (the
 * hottest read: access and the card in one round trip). The card's JSON is cardView.ts's.
 */
import { Schema } from "effect"
import { WorkspaceRole } from "../domain/enums.ts"
import { ProjectId } from "../domain/ids.ts"
import { statement } from "../infra/statement.ts"
import { membershipOf } from "./Access.ts"
import { cardColumn, cardJson } from "./cardView.ts"

/** Cards by id (any order: `load` puts them in the order asked). */
export const loadSql = statement<{ ids: ReadonlyArray<string>; now: string }>(
  (p) => `SELECT ${cardColumn(p.now)} FROM cards c WHERE c.id = ANY(${p.ids}::uuid[])`
)

/**
 * A card's JSON text with its project, workspace and the caller's role there (null: not a
 * member), in one statement. The text is sent on as it is by the card read (no parse, decode,
 * encode and stringify of a card per request: issue 35); `Cards.get` decodes it for callers that
 * need the card's fields.
 */
export const getSql = statement<{ id: string; user: string; now: string }>(
  (p) => `
  SELECT (${cardJson(p.now)}) AS card, c.project_id, p.workspace_id, m.role FROM cards c
  JOIN projects p ON p.id = c.project_id
  ${membershipOf("p.workspace_id", p.user)}
  WHERE c.id = ${p.id}::uuid`
)
export const GetRow = Schema.Struct({
  card: Schema.String,
  project_id: ProjectId,
  workspace_id: Schema.String,
  role: Schema.NullOr(WorkspaceRole)
})
