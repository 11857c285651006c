/**
 * A workspace's own settings and its end (issue 30): an admin renames it, an owner deletes it.
 *
 * A delete removes everything in the workspace in one transaction: the schema's cascades take its
 * projects (and with them columns, cards, comments, subtasks, labels, links, intake tokens, agent
 * sessions and their activities), its webhooks and their deliveries, and its memberships; what
 * no foreign key reaches goes by hand: its events, its columns' order counts, and its id in the
 * OAuth grants that named it. The memberships' delete announces itself on the revocation feed
 * (migrations/0016), so every instance's open streams of the workspace end; this process's end
 * before the answer (`CredentialWatch.recheck`). A workspace logs no event: the log is per
 * project, and nothing of the workspace is left to read one.
 */
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { CredentialWatch } from "../auth/CredentialWatch.ts"
import { type Forbidden, NotFound, type WorkspaceNotGranted } from "../domain/errors.ts"
import type { WorkspaceId } from "../domain/ids.ts"
import type { WorkspacePatch } from "../domain/inputs.ts"
import type { Principal } from "../domain/Principal.ts"
import { sqlNow } from "../infra/clock.ts"
import { retryConflicts } from "../infra/retryConflicts.ts"
import { Access, withoutArchive } from "./Access.ts"
import { deleteOrderCounts } from "./orderCounts.ts"
import { toWorkspace, type WorkspaceView } from "./rows.ts"

type AccessError = NotFound | WorkspaceNotGranted

export class WorkspaceAdmin extends Context.Service<
  WorkspaceAdmin,
  {
    readonly rename: (
      principal: Principal,
      id: WorkspaceId,
      patch: WorkspacePatch
    ) => Effect.Effect<WorkspaceView, AccessError | Forbidden>
    readonly remove: (principal: Principal, id: WorkspaceId) => Effect.Effect<void, AccessError | Forbidden>
  }
>()("board/core/WorkspaceAdmin") {
  static readonly layer = Layer.effect(
    WorkspaceAdmin,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const access = yield* Access
      const watch = yield* CredentialWatch
      const notFound = (id: string) => new NotFound({ message: `workspace ${id} not found` })

      const rename = Effect.fn("WorkspaceAdmin.rename")(function* (
        principal: Principal,
        id: WorkspaceId,
        patch: WorkspacePatch
      ) {
        const { role } = yield* withoutArchive(
          access.write(principal, "workspace", id, { needed: "admin", action: "rename the workspace" })
        )
        const name = patch.name.trim()
        const now = yield* sqlNow
        // a rename to the same name changes nothing (its updatedAt stays)
        const [row] = yield* sql<{ id: string; name: string; created_at: Date; updated_at: Date }>`
          UPDATE workspaces SET name = ${name},
            updated_at = CASE WHEN name = ${name} THEN updated_at ELSE ${now}::timestamptz END
          WHERE id = ${id} RETURNING id, name, created_at, updated_at`.pipe(Effect.orDie)
        if (row === undefined) return yield* notFound(id)
        return toWorkspace({ ...row, role })
      })

      const remove = Effect.fn("WorkspaceAdmin.remove")(function* (principal: Principal, id: WorkspaceId) {
        yield* withoutArchive(
          access.write(principal, "workspace", id, { needed: "owner", action: "delete the workspace", deletes: true })
        )
        const gone = yield* sql
          .withTransaction(
            Effect.gen(function* () {
              const [ws] = yield* sql<{ id: string }>`SELECT id FROM workspaces WHERE id = ${id} FOR UPDATE`
              if (ws === undefined) return false
              const columns = yield* sql<{ id: string }>`
                SELECT c.id FROM board_columns c JOIN projects p ON p.id = c.project_id WHERE p.workspace_id = ${id}`
              yield* sql`DELETE FROM events WHERE workspace_id = ${id}`
              yield* sql`DELETE FROM workspaces WHERE id = ${id}`
              yield* deleteOrderCounts(
                sql,
                columns.map((c) => c.id)
              )
              yield* sql`UPDATE oauth_grants SET workspaces = array_remove(workspaces, ${id}::uuid)
                WHERE ${id}::uuid = ANY(workspaces)`
              return true
            })
          )
          .pipe(retryConflicts, Effect.orDie)
        if (!gone) return yield* notFound(id)
        yield* watch.recheck
      })

      return WorkspaceAdmin.of({ rename, remove })
    })
  )
}
