/**
 * A project as its own resource (issue 30): read by any member; renamed, archived, restored, its
 * automation switched, and deleted by an admin. Each change logs its project-level event in its
 * own transaction (`project.updated`, `project.archived`, `project.restored`, `project.deleted`).
 *
 * An archived project keeps its board and its history; `archived_at` is what the access rule
 * reads to refuse its writes (409), and what the workspace's project list leaves out.
 *
 * A delete removes the project's rows through the schema's cascades (columns, cards and what
 * hangs off them, labels, links, intake tokens, its webhooks, agent sessions), and what has no
 * foreign key by hand, in the same transaction: its events, its columns' order counts. A
 * workspace-wide webhook still gets `project.deleted`; its deliveries of the project's earlier
 * events that were never sent are failed with a reason. Open streams of the project end
 * (auth/CredentialWatch.ts asks whether their project still exists).
 */
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { type Forbidden, NotFound, type WorkspaceNotGranted } from "../domain/errors.ts"
import type { ProjectId } from "../domain/ids.ts"
import type { ProjectPatch } from "../domain/inputs.ts"
import type { Principal } from "../domain/Principal.ts"
import type { EventType } from "../domain/event.ts"
import { CredentialWatch } from "../auth/CredentialWatch.ts"
import { EventLog } from "../events/EventLog.ts"
import { sqlNow } from "../infra/clock.ts"
import { retryConflicts } from "../infra/retryConflicts.ts"
import { Access, withoutArchive } from "./Access.ts"
import { deleteOrderCounts } from "./orderCounts.ts"
import { type ProjectRow, type ProjectView, projectRowColumns, toProject } from "./rows.ts"

type AccessError = NotFound | WorkspaceNotGranted

/** Why a never-sent delivery of a deleted project's event was given up. */
export const DELETED_PROJECT_DELIVERY = "the project was deleted before this event could be delivered"

export class Projects extends Context.Service<
  Projects,
  {
    readonly get: (principal: Principal, id: ProjectId) => Effect.Effect<ProjectView, AccessError>
    /** An admin's; an empty patch, or one that changes nothing, changes nothing and logs nothing. */
    readonly update: (
      principal: Principal,
      id: ProjectId,
      patch: ProjectPatch
    ) => Effect.Effect<ProjectView, AccessError | Forbidden>
    readonly remove: (principal: Principal, id: ProjectId) => Effect.Effect<void, AccessError | Forbidden>
  }
>()("board/core/Projects") {
  static readonly layer = Layer.effect(
    Projects,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const access = yield* Access
      const events = yield* EventLog
      const watch = yield* CredentialWatch

      const read = (id: string) =>
        sql<ProjectRow>`SELECT ${sql.literal(projectRowColumns)} FROM projects WHERE id = ${id}`.pipe(Effect.orDie)

      const get = Effect.fn("Projects.get")(function* (principal: Principal, id: ProjectId) {
        yield* access.resolve(principal, "project", id)
        const [row] = yield* read(id)
        // the project went between the access check and the read
        if (row === undefined) return yield* new NotFound({ message: `project ${id} not found` })
        return toProject(row)
      })

      const update = Effect.fn("Projects.update")(function* (principal: Principal, id: ProjectId, patch: ProjectPatch) {
        const project = yield* withoutArchive(
          access.write(principal, "project", id, {
            needed: "admin",
            action: "change a project's name, archive or automation",
            evenArchived: true
          })
        )
        const now = yield* sqlNow
        const after = yield* events
          .withEvents(
            Effect.gen(function* () {
              const [row] = yield* sql<ProjectRow>`
                SELECT ${sql.literal(projectRowColumns)} FROM projects WHERE id = ${id} FOR NO KEY UPDATE`
              if (row === undefined) return undefined
              const before = toProject(row)
              const name = patch.name?.trim() ?? before.name
              const automation = { ...before.automation, ...patch.automation }
              // whether the archive state flips (archiving an archived project changes nothing)
              const flips = patch.archived !== undefined && patch.archived !== (before.archivedAt !== null)
              const archivedAt = flips ? (patch.archived ? now : null) : before.archivedAt
              const renamed = name !== before.name
              const switched =
                automation.pullRequestOpened !== before.automation.pullRequestOpened ||
                automation.pullRequestMerged !== before.automation.pullRequestMerged
              if (!renamed && !switched && !flips) return before
              const [changed] = yield* sql<ProjectRow>`
                UPDATE projects SET name = ${name}, automation = ${JSON.stringify(automation)}::jsonb,
                  archived_at = ${archivedAt}::timestamptz,
                  updated_at = ${now}::timestamptz
                WHERE id = ${id} RETURNING ${sql.literal(projectRowColumns)}`
              const view = toProject(changed!)
              const log = (type: EventType, previous?: Record<string, unknown>) =>
                events.record(principal, {
                  type,
                  workspaceId: project.workspaceId,
                  projectId: id,
                  object: view,
                  previous
                })
              if (renamed || switched) {
                const previous: Record<string, unknown> = {}
                if (renamed) previous.name = before.name
                if (switched) previous.automation = before.automation
                yield* log("project.updated", previous)
              }
              if (flips)
                yield* log(patch.archived ? "project.archived" : "project.restored", { archivedAt: before.archivedAt })
              return view
            })
          )
          .pipe(retryConflicts, Effect.orDie)
        if (after === undefined) return yield* new NotFound({ message: `project ${id} not found` })
        return after
      })

      const remove = Effect.fn("Projects.remove")(function* (principal: Principal, id: ProjectId) {
        const project = yield* withoutArchive(
          access.write(principal, "project", id, {
            needed: "admin",
            action: "delete a project",
            evenArchived: true,
            deletes: true
          })
        )
        const now = yield* sqlNow
        const gone = yield* events
          .withEvents(
            Effect.gen(function* () {
              const [row] = yield* sql<ProjectRow>`
                SELECT ${sql.literal(projectRowColumns)} FROM projects WHERE id = ${id} FOR UPDATE`
              if (row === undefined) return false
              const columns = yield* sql<{ id: string }>`SELECT id FROM board_columns WHERE project_id = ${id}`
              // a workspace-wide webhook outlives the project: what it was never sent of the
              // project's events is given up, with the reason (its own webhooks go with it)
              yield* sql`
                UPDATE webhook_deliveries SET status = 'failed', last_error = ${DELETED_PROJECT_DELIVERY},
                  updated_at = ${now}::timestamptz
                WHERE status = 'pending' AND payload IS NULL
                  AND webhook_id IN (SELECT w.id FROM webhooks w WHERE w.workspace_id = ${project.workspaceId} AND w.project_id IS NULL)
                  AND event_n IN (SELECT e.n FROM events e WHERE e.project_id = ${id})`
              yield* sql`DELETE FROM events WHERE project_id = ${id}`
              yield* sql`DELETE FROM projects WHERE id = ${id}`
              // the cards' delete trigger counted them out of their columns, which are gone too
              yield* deleteOrderCounts(
                sql,
                columns.map((c) => c.id)
              )
              // its last state; the workspace's webhooks and the project's open streams get it
              yield* events.record(principal, {
                type: "project.deleted",
                workspaceId: project.workspaceId,
                projectId: id,
                object: toProject(row)
              })
              return true
            })
          )
          .pipe(retryConflicts, Effect.orDie)
        if (!gone) return yield* new NotFound({ message: `project ${id} not found` })
        // this process's streams of the project end before the answer; other instances' within
        // a sweep (CredentialWatch)
        yield* watch.recheck
      })

      return Projects.of({ get, update, remove })
    })
  )
}
