/**
 * Invitations to a workspace (issue 30, CONTRACT.md "Teams"): an admin makes a link that lets
 * one person join with a role. Rules:
 * - the token (`svc_inv_…`) is shown once, in the answer that makes it; only its SHA-256 digest
 *   is stored (migrations/0020_invitations.sql), so listing shows neither token nor link;
 * - valid 7 days and once: accepting marks it used in the statement that makes the membership;
 *   an unknown, used, withdrawn (deleted) or expired link is one NotFound with one message;
 * - an invitation that names an email can only be accepted by the account with that email;
 * - a new account can accept one as it signs up (`join` inside signup's transaction), also
 *   while SIGNUPS_OPEN=false;
 * - with an email and mail configured, the link is mailed too (mail/Mailer.ts).
 */
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { isEmailAddress, normalizeEmail } from "../auth/Accounts.ts"
import { digestToken, isWellFormed, mintToken } from "../auth/secretTokens.ts"
import { AppConfig } from "../Config.ts"
import type { WorkspaceRole } from "../domain/enums.ts"
import { Conflict, Forbidden, InvalidInput, NotFound, type WorkspaceNotGranted } from "../domain/errors.ts"
import type { InvitationId, UserId, WorkspaceId } from "../domain/ids.ts"
import type { Invitation, InvitationCreate, InvitationCreated, InvitationPreview } from "../domain/invitation.ts"
import type { Principal } from "../domain/Principal.ts"
import { sqlNow } from "../infra/clock.ts"
import { Mailer } from "../mail/Mailer.ts"
import { invitationMail } from "../mail/messages.ts"
import { Access, isUuid, requireRole, requireScopes } from "./Access.ts"
import { iso, type MemberView, toMember, toWorkspace, type WorkspaceView } from "./rows.ts"

export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000

/** One message for every link that does not work, so an answer tells nothing about the others. */
export const INVITATION_GONE =
  "invitation not found: the link is unknown, already used, withdrawn or expired; ask whoever invited you for a new one"

export interface Joined {
  readonly workspace: WorkspaceView
  readonly member: MemberView
}

interface PendingRow {
  readonly id: string
  readonly workspace_id: string
  readonly email: string | null
  readonly role: WorkspaceRole
  readonly expires_at: Date
  readonly invited_by: string
  readonly workspace_name: string
  readonly inviter_name: string
}

interface InvitationRow {
  readonly id: string
  readonly workspace_id: string
  readonly email: string | null
  readonly role: WorkspaceRole
  readonly expires_at: Date
  readonly created_at: Date
}

const toInvitation = (r: InvitationRow): Invitation => ({
  id: r.id as InvitationId,
  workspaceId: r.workspace_id as WorkspaceId,
  email: r.email,
  role: r.role,
  expiresAt: iso(r.expires_at),
  createdAt: iso(r.created_at)
})

type ManageError = Forbidden | NotFound | WorkspaceNotGranted | Conflict

export class Invitations extends Context.Service<
  Invitations,
  {
    readonly create: (
      principal: Principal,
      workspaceId: string,
      input: InvitationCreate
    ) => Effect.Effect<InvitationCreated, InvalidInput | ManageError>
    /** The pending ones (not used, not expired), oldest first. */
    readonly list: (principal: Principal, workspaceId: string) => Effect.Effect<ReadonlyArray<Invitation>, ManageError>
    /** Withdraws a pending invitation: its link answers 404 from then on. */
    readonly revoke: (principal: Principal, id: string) => Effect.Effect<void, ManageError>
    /** What the link shows, to anyone who holds it. */
    readonly preview: (token: string) => Effect.Effect<InvitationPreview, NotFound>
    readonly accept: (principal: Principal, token: string) => Effect.Effect<Joined, NotFound | Forbidden | Conflict>
    /** Signup's check before it makes the account: the link works and may be used by `email`. */
    readonly check: (token: string, email: string) => Effect.Effect<void, NotFound | Forbidden>
    /** Joins `user` by the link, in the caller's transaction when there is one. */
    readonly join: (
      token: string,
      user: { readonly id: string; readonly email: string }
    ) => Effect.Effect<Joined, NotFound | Forbidden | Conflict>
  }
>()("board/core/Invitations") {
  static readonly layer = Layer.effect(
    Invitations,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const access = yield* Access
      const config = yield* AppConfig
      const mailer = yield* Mailer
      const gone = new NotFound({ message: INVITATION_GONE })
      const linkOf = (token: string) => `${config.publicUrl}/invite/${token}`

      const pending = (token: string, now: string, lock: boolean) =>
        Effect.gen(function* () {
          if (!isWellFormed("invitation", token)) return undefined
          const rows = yield* sql<PendingRow>`
            SELECT i.id, i.workspace_id, i.email, i.role, i.expires_at, i.invited_by,
              w.name AS workspace_name, u.full_name AS inviter_name
            FROM invitations i JOIN workspaces w ON w.id = i.workspace_id JOIN users u ON u.id = i.invited_by
            WHERE i.digest = ${digestToken(token)} AND i.accepted_at IS NULL AND i.expires_at > ${now}::timestamptz
            ${lock ? sql.literal("FOR UPDATE OF i") : sql.literal("")}`.pipe(Effect.orDie)
          return rows[0]
        })

      const forEmail = (row: PendingRow, email: string) =>
        row.email === null || row.email === normalizeEmail(email)
          ? Effect.void
          : Effect.fail(
              new Forbidden({
                message:
                  "this invitation is for another email address: sign in with that address, or ask for an invitation to yours"
              })
            )

      // managing invitations is an admin's (role, and the credential's `admin` scope); listing
      // them reads, withdrawing one deletes
      const manage = (
        principal: Principal,
        workspaceId: string,
        what?: string,
        op: "read" | "write" | "delete" = "write"
      ) =>
        Effect.gen(function* () {
          if (op !== "read") {
            const { role } = yield* access.write(principal, "workspace", workspaceId, {
              needed: "admin",
              action: "manage invitations",
              ...(what === undefined ? {} : { what }),
              deletes: op === "delete"
            })
            return role
          }
          const { role } = yield* access.resolve(principal, "workspace", workspaceId, what)
          yield* requireRole(role, "admin", "manage invitations")
          yield* requireScopes(principal, ["admin"], "manage invitations")
          return role
        })

      const create = Effect.fn("Invitations.create")(function* (
        principal: Principal,
        workspaceId: string,
        input: InvitationCreate
      ) {
        const callerRole = yield* manage(principal, workspaceId)
        const role = input.role ?? "member"
        if (role === "owner") yield* requireRole(callerRole, "owner", "invite an owner")
        const email = input.email === undefined ? null : normalizeEmail(input.email)
        if (email !== null && !isEmailAddress(email)) {
          return yield* new InvalidInput({ message: "email: expected an email address such as ada@example.com" })
        }
        const token = mintToken("invitation")
        const now = yield* sqlNow
        const [row] = yield* sql<InvitationRow & { workspace_name: string; inviter_name: string }>`
          INSERT INTO invitations (workspace_id, invited_by, email, role, digest, created_at, expires_at)
          VALUES (${workspaceId}, ${principal.userId}, ${email}, ${role}, ${digestToken(token)},
            ${now}::timestamptz, ${now}::timestamptz + ${`${INVITATION_TTL_MS} milliseconds`}::interval)
          RETURNING id, workspace_id, email, role, expires_at, created_at,
            (SELECT name FROM workspaces WHERE id = workspace_id) AS workspace_name,
            (SELECT full_name FROM users WHERE id = invited_by) AS inviter_name`.pipe(Effect.orDie)
        const invitation = toInvitation(row!)
        const url = linkOf(token)
        if (email !== null && mailer.configured) {
          yield* mailer.post(
            invitationMail({
              to: email,
              inviter: row!.inviter_name,
              workspace: row!.workspace_name,
              role,
              url,
              expiresAt: invitation.expiresAt
            })
          )
        }
        return { ...invitation, url, token }
      })

      const list = Effect.fn("Invitations.list")(function* (principal: Principal, workspaceId: string) {
        yield* manage(principal, workspaceId, undefined, "read")
        const now = yield* sqlNow
        const rows = yield* sql<InvitationRow>`
          SELECT id, workspace_id, email, role, expires_at, created_at FROM invitations
          WHERE workspace_id = ${workspaceId} AND accepted_at IS NULL AND expires_at > ${now}::timestamptz
          ORDER BY created_at, id`.pipe(Effect.orDie)
        return rows.map(toInvitation)
      })

      const revoke = Effect.fn("Invitations.revoke")(function* (principal: Principal, id: string) {
        const missing = new NotFound({ message: isUuid(id) ? `invitation ${id} not found` : "invitation not found" })
        if (!isUuid(id)) return yield* missing
        const [row] = yield* sql<{ workspace_id: string }>`
          SELECT workspace_id FROM invitations WHERE id = ${id} AND accepted_at IS NULL`.pipe(Effect.orDie)
        if (row === undefined) return yield* missing
        yield* manage(principal, row.workspace_id, `invitation ${id}`, "delete")
        yield* sql`DELETE FROM invitations WHERE id = ${id} AND accepted_at IS NULL`.pipe(Effect.orDie)
      })

      const preview = Effect.fn("Invitations.preview")(function* (token: string) {
        const row = yield* pending(token, yield* sqlNow, false)
        if (row === undefined) return yield* gone
        return {
          workspaceName: row.workspace_name,
          invitedBy: { userId: row.invited_by as UserId, fullName: row.inviter_name },
          role: row.role,
          email: row.email,
          expiresAt: iso(row.expires_at)
        }
      })

      const check = Effect.fn("Invitations.check")(function* (token: string, email: string) {
        const row = yield* pending(token, yield* sqlNow, false)
        if (row === undefined) return yield* gone
        yield* forEmail(row, email)
      })

      const join = (token: string, user: { readonly id: string; readonly email: string }) =>
        sql
          .withTransaction(
            Effect.gen(function* () {
              const now = yield* sqlNow
              const row = yield* pending(token, now, true)
              if (row === undefined) return yield* gone
              yield* forEmail(row, user.email)
              const added = yield* sql`
                INSERT INTO workspace_members (workspace_id, user_id, role, joined_at)
                VALUES (${row.workspace_id}, ${user.id}, ${row.role}, ${now}::timestamptz)
                ON CONFLICT (workspace_id, user_id) DO NOTHING RETURNING user_id`
              // the link stays usable: it may have been meant for someone else on this account's team
              if (added.length === 0)
                return yield* new Conflict({ message: "you are already a member of this workspace" })
              const used = yield* sql`
                UPDATE invitations SET accepted_at = ${now}::timestamptz, accepted_by = ${user.id}
                WHERE id = ${row.id} AND accepted_at IS NULL RETURNING id`
              if (used.length === 0) return yield* gone
              const [joined] = yield* sql<{
                id: string
                name: string
                created_at: Date
                updated_at: Date
                user_id: string
                email: string
                full_name: string
                kind: string
                joined_at: Date
              }>`
                SELECT w.id, w.name, w.created_at, w.updated_at, m.user_id, u.email, u.full_name, u.kind, m.joined_at
                FROM workspace_members m JOIN workspaces w ON w.id = m.workspace_id JOIN users u ON u.id = m.user_id
                WHERE m.workspace_id = ${row.workspace_id} AND m.user_id = ${user.id}`
              return {
                workspace: toWorkspace({ ...joined!, role: row.role }),
                member: toMember({ ...joined!, role: row.role })
              }
            })
          )
          .pipe(Effect.catchTag("SqlError", Effect.die), Effect.withSpan("Invitations.join"))

      const accept = Effect.fn("Invitations.accept")(function* (principal: Principal, token: string) {
        const [user] = yield* sql<{ id: string; email: string }>`
          SELECT id, email FROM users WHERE id = ${principal.userId}`.pipe(Effect.orDie)
        if (user === undefined) return yield* gone
        return yield* join(token, user)
      })

      return Invitations.of({ create, list, revoke, preview, accept, check, join })
    })
  )
}
