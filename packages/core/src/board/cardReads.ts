/**
 * The card's two reads by id, each one statement: several cards for `load` (no access check:
 * callers have checked), and one card with its workspace and the caller's role for `get` (the
 * hottest read: access and the card in one round trip). The card's JSON is cardView.ts's.
 */
import { Schema } from "effect"
import { Card } from "../domain/card.ts"
import { WorkspaceRole } from "../domain/enums.ts"
import { statement } from "../infra/statement.ts"
import { membershipOf } from "./Access.ts"
import { cardColumn } from "./cardView.ts"

/** Cards by id (any order: `load` puts them in the order asked). */
export const loadSql = statement<{ ids: ReadonlyArray<string>; now: string }>(
  (p) => `SELECT ${cardColumn(p.now)} FROM cards c WHERE c.id = ANY(${p.ids}::uuid[])`
)

/** A card with its workspace and the caller's role there (null: not a member), in one statement. */
export const getSql = statement<{ id: string; user: string; now: string }>(
  (p) => `
  SELECT ${cardColumn(p.now)}, p.workspace_id, m.role FROM cards c
  JOIN projects p ON p.id = c.project_id
  ${membershipOf("p.workspace_id", p.user)}
  WHERE c.id = ${p.id}::uuid`
)
export const GetRow = Schema.Struct({ card: Card, workspace_id: Schema.String, role: Schema.NullOr(WorkspaceRole) })
