/**
 * A workspace's members (CONTRACT.md, "Teams"): list (any member), add an existing account,
 * change a role, remove or leave. Who may do what is the one access rule's (`Access.write` with
 * the role each operation needs): an admin manages members; only an owner makes or unmakes an
 * owner (or removes one); anyone may leave. A workspace always keeps an owner (409). A removal
 * ends the member's card assignments in the workspace (each a `card.assigned` event; their
 * cards, comments and history stay) and, after the commit, what they have open there
 * (CredentialWatch: here at once, on other instances through the revocation feed's
 * `member:<user id>`, migrations/0016). A role change needs nothing of the sort: every request
 * reads the role afresh. Members themselves log no event: the event log is per project
 * (docs/events.md).
 */
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { isEmailAddress, normalizeEmail } from "../auth/Accounts.ts"
import { CredentialWatch } from "../auth/CredentialWatch.ts"
import type { WorkspaceRole } from "../domain/enums.ts"
import { Conflict, InvalidInput, NotFound, type WorkspaceNotGranted } from "../domain/errors.ts"
import type { MemberAdd, MemberRolePatch } from "../domain/inputs.ts"
import type { Principal } from "../domain/Principal.ts"
import type { MemberKind } from "../domain/workspace.ts"
import { EventLog } from "../events/EventLog.ts"
import { sqlNow } from "../infra/clock.ts"
import { Access, requireRole, type WriteError } from "./Access.ts"
import { Cards } from "./Cards.ts"
import { type MemberView, toMember } from "./rows.ts"

/**
 * What kind of member a user is, in SQL over `users u`: the one place the list reads it (an agent
 * member's account has kind 'agent': migration 0022, board/AgentMembers.ts).
 */
export const memberKindSql = "u.kind"

const MEMBER_SELECT = `SELECT m.user_id, u.email, u.full_name, m.role, ${memberKindSql} AS kind, m.joined_at
  FROM workspace_members m JOIN users u ON u.id = m.user_id`

interface MemberRow {
  user_id: string
  email: string
  full_name: string
  role: WorkspaceRole
  kind: MemberKind
  joined_at: Date
}

const noOwnerLeft =
  "this would leave the workspace without an owner: make another member an owner first (PATCH their role to owner)"

export class Members extends Context.Service<
  Members,
  {
    readonly list: (
      principal: Principal,
      workspaceId: string
    ) => Effect.Effect<ReadonlyArray<MemberView>, NotFound | WorkspaceNotGranted>
    readonly add: (
      principal: Principal,
      workspaceId: string,
      input: MemberAdd
    ) => Effect.Effect<MemberView, InvalidInput | WriteError>
    readonly setRole: (
      principal: Principal,
      workspaceId: string,
      userId: string,
      input: MemberRolePatch
    ) => Effect.Effect<MemberView, WriteError>
    /** Removes a member, or (the caller's own user id) leaves. */
    readonly remove: (principal: Principal, workspaceId: string, userId: string) => Effect.Effect<void, WriteError>
  }
>()("board/core/Members") {
  static readonly layer = Layer.effect(
    Members,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const access = yield* Access
      const events = yield* EventLog
      const cards = yield* Cards
      const watch = yield* CredentialWatch

      const one = (workspaceId: string, userId: string) =>
        sql
          .unsafe<MemberRow>(`${MEMBER_SELECT} WHERE m.workspace_id = $1 AND m.user_id = $2`, [workspaceId, userId])
          .pipe(
            Effect.orDie,
            Effect.map((rows) => rows[0])
          )

      const list = Effect.fn("Members.list")(function* (principal: Principal, workspaceId: string) {
        yield* access.resolve(principal, "workspace", workspaceId)
        const rows = yield* sql
          .unsafe<MemberRow>(`${MEMBER_SELECT} WHERE m.workspace_id = $1 ORDER BY m.joined_at, u.email`, [workspaceId])
          .pipe(Effect.orDie)
        return rows.map(toMember)
      })

      const add = Effect.fn("Members.add")(function* (principal: Principal, workspaceId: string, input: MemberAdd) {
        const role = input.role ?? "member"
        const at = yield* access.write(principal, "workspace", workspaceId, { needed: "admin", action: "add members" })
        if (role === "owner") yield* requireRole(at.role, "owner", "make owners")
        const email = normalizeEmail(input.email)
        // a malformed address is a malformed request (400), not an account that does not exist
        if (!isEmailAddress(email)) {
          return yield* new InvalidInput({ message: "email: expected an email address such as ada@example.com" })
        }
        const [user] = yield* sql<{ id: string }>`SELECT id FROM users WHERE email = ${email}`.pipe(Effect.orDie)
        if (user === undefined) {
          return yield* new NotFound({
            message: "no account with this email; they must sign up first, or invite them (board member invite)"
          })
        }
        const now = yield* sqlNow
        const inserted = yield* sql`
          INSERT INTO workspace_members (workspace_id, user_id, role, joined_at)
          VALUES (${workspaceId}, ${user.id}, ${role}, ${now}::timestamptz)
          ON CONFLICT (workspace_id, user_id) DO NOTHING RETURNING user_id`.pipe(Effect.orDie)
        if (inserted.length === 0) {
          return yield* new Conflict({
            message: `${email} is already a member of this workspace; change their role instead (PATCH /v1/workspaces/${workspaceId}/members/${user.id})`
          })
        }
        return toMember((yield* one(workspaceId, user.id))!)
      })

      /** The target's membership, locked with the workspace's owners (so two demotions cannot both pass). */
      const locked = (workspaceId: string, userId: string) =>
        Effect.gen(function* () {
          const rows = yield* sql<{ user_id: string; role: WorkspaceRole }>`
            SELECT user_id, role FROM workspace_members
            WHERE workspace_id = ${workspaceId} AND (role = 'owner' OR user_id = ${userId})
            ORDER BY user_id FOR UPDATE`
          const target = rows.find((r) => r.user_id === userId)
          const owners = rows.filter((r) => r.role === "owner").length
          return { target, owners }
        })

      const notMember = (userId: string) =>
        new NotFound({ message: `user ${userId} is not a member of this workspace` })

      const setRole = Effect.fn("Members.setRole")(function* (
        principal: Principal,
        workspaceId: string,
        userId: string,
        input: MemberRolePatch
      ) {
        const at = yield* access.write(principal, "workspace", workspaceId, {
          needed: "admin",
          action: "change members' roles"
        })
        yield* sql
          .withTransaction(
            Effect.gen(function* () {
              const { target, owners } = yield* locked(workspaceId, userId)
              if (target === undefined) return yield* notMember(userId)
              if (target.role === input.role) return undefined
              if (target.role === "owner" || input.role === "owner")
                yield* requireRole(at.role, "owner", "make or unmake an owner")
              if (target.role === "owner" && owners <= 1) return yield* new Conflict({ message: noOwnerLeft })
              yield* sql`UPDATE workspace_members SET role = ${input.role}
                WHERE workspace_id = ${workspaceId} AND user_id = ${userId}`
              return undefined
            })
          )
          .pipe(Effect.catchTag("SqlError", Effect.die))
        return toMember((yield* one(workspaceId, userId))!)
      })

      const remove = Effect.fn("Members.remove")(function* (principal: Principal, workspaceId: string, userId: string) {
        const leaving = userId === principal.userId
        // leaving needs only to be a member; removing someone else is an admin's (an owner's: an owner)
        const at = leaving
          ? yield* access.write(principal, "workspace", workspaceId, {
              needed: "viewer",
              action: "leave the workspace",
              deletes: true
            })
          : yield* access.write(principal, "workspace", workspaceId, {
              needed: "admin",
              action: "remove members",
              deletes: true
            })
        const now = yield* sqlNow
        yield* events
          .withEvents(
            Effect.gen(function* () {
              const { target, owners } = yield* locked(workspaceId, userId)
              if (target === undefined) return yield* notMember(userId)
              if (target.role === "owner" && !leaving) yield* requireRole(at.role, "owner", "remove an owner")
              if (target.role === "owner" && owners <= 1) return yield* new Conflict({ message: noOwnerLeft })
              // their assignments in this workspace end, each card's card.assigned telling it
              const ended = yield* sql<{ card_id: string; project_id: string; before: Array<string> }>`
                SELECT c.id AS card_id, c.project_id,
                  array(SELECT a2.user_id::text FROM card_assignees a2 WHERE a2.card_id = c.id ORDER BY a2.user_id) AS before
                FROM card_assignees a JOIN cards c ON c.id = a.card_id JOIN projects p ON p.id = c.project_id
                WHERE a.user_id = ${userId} AND p.workspace_id = ${workspaceId}
                ORDER BY c.id`
              yield* sql`DELETE FROM card_assignees a USING cards c, projects p
                WHERE a.user_id = ${userId} AND c.id = a.card_id AND p.id = c.project_id AND p.workspace_id = ${workspaceId}`
              yield* sql`DELETE FROM workspace_members WHERE workspace_id = ${workspaceId} AND user_id = ${userId}`
              if (ended.length > 0) {
                yield* sql.unsafe(`UPDATE cards SET updated_at = $1::timestamptz WHERE id = ANY($2::uuid[])`, [
                  now,
                  ended.map((e) => e.card_id)
                ])
                const after = yield* cards.load(ended.map((e) => e.card_id))
                yield* events.record(
                  principal,
                  after.map((card, i) => ({
                    type: "card.assigned" as const,
                    workspaceId,
                    projectId: ended[i]!.project_id,
                    cardId: card.id,
                    object: card,
                    previous: { assigneeIds: ended[i]!.before }
                  }))
                )
              }
            })
          )
          .pipe(Effect.catchTag("SqlError", Effect.die))
        // what they had open in the workspace ends now here (other instances: the feed, migrations/0016)
        yield* watch.recheck
      })

      return Members.of({ list, add, setRole, remove })
    })
  )
}
