/**
 * The one access rule: every resource resolves to its workspace; a user who is not a member
 * gets NotFound (missing and not-yours look the same), a member whose credential's grant does
 * not cover the workspace gets WorkspaceNotGranted.
 */
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { NotFound, WorkspaceNotGranted } from "../domain/errors.ts"
import type { Principal } from "../domain/Principal.ts"

export type Role = "owner" | "member"

export const checkGrant = (
  principal: Principal,
  workspaceId: string,
  role: Role | undefined,
  what: string
): Effect.Effect<Role, NotFound | WorkspaceNotGranted> =>
  role === undefined
    ? Effect.fail(new NotFound({ message: `${what} not found` }))
    : principal.workspaces !== "all" && !principal.workspaces.has(workspaceId)
    ? Effect.fail(new WorkspaceNotGranted({ message: `this credential's grant does not cover the workspace of this ${what.split(" ")[0]}` }))
    : Effect.succeed(role)

export class Access extends Context.Service<Access, {
  /** The caller's role in the workspace, or the refusal. `what` names the resource in messages. */
  readonly workspace: (principal: Principal, workspaceId: string, what?: string) => Effect.Effect<Role, NotFound | WorkspaceNotGranted>
  /** Resolves a project to its workspace and checks access. */
  readonly project: (principal: Principal, projectId: string, what?: string) => Effect.Effect<{ workspaceId: string }, NotFound | WorkspaceNotGranted>
}>()("board/core/Access") {
  static readonly layer = Layer.effect(
    Access,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const workspace = (principal: Principal, workspaceId: string, what = `workspace ${workspaceId}`) =>
        sql<{ role: Role }>`
          SELECT role FROM workspace_members WHERE workspace_id = ${workspaceId} AND user_id = ${principal.userId}`.pipe(
          Effect.orDie,
          Effect.flatMap((rows) => checkGrant(principal, workspaceId, rows[0]?.role, what))
        )
      const project = (principal: Principal, projectId: string, what = `project ${projectId}`) =>
        sql<{ workspace_id: string; role: Role | null }>`
          SELECT p.workspace_id, m.role FROM projects p
          LEFT JOIN workspace_members m ON m.workspace_id = p.workspace_id AND m.user_id = ${principal.userId}
          WHERE p.id = ${projectId}`.pipe(
          Effect.orDie,
          Effect.flatMap((rows) => {
            const row = rows[0]
            return checkGrant(principal, row?.workspace_id ?? "", row?.role ?? undefined, what).pipe(
              Effect.as({ workspaceId: row?.workspace_id ?? "" })
            )
          })
        )
      return Access.of({ workspace, project })
    })
  )
}
