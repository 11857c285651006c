/** Workspaces and their projects (their members: Members.ts). */
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { Forbidden, InvalidInput, type NotFound, type WorkspaceNotGranted } from "../domain/errors.ts"
import type { Principal } from "../domain/Principal.ts"
import { projectTemplates } from "../domain/projectTemplates.ts"
import { sqlNow } from "../infra/clock.ts"
import { Access, grantCovers, outsideProjects, requireScopes, scopesFor, type WriteError } from "./Access.ts"
import { refPrefixFor } from "./refPrefix.ts"
import {
  type ColumnRow,
  type ColumnView,
  columnRowColumns,
  type ProjectRow,
  projectRowColumns,
  type ProjectView,
  toColumn,
  toProject,
  toWorkspace,
  type WorkspaceView
} from "./rows.ts"
import type { WorkspaceRole } from "../domain/enums.ts"

export class Workspaces extends Context.Service<
  Workspaces,
  {
    readonly create: (principal: Principal, name: string) => Effect.Effect<WorkspaceView, Forbidden>
    readonly list: (principal: Principal) => Effect.Effect<ReadonlyArray<WorkspaceView>>
    /** The live projects, or with `archived: true` the archived ones instead (as cards' `?archived=true`). */
    readonly projects: (
      principal: Principal,
      workspaceId: string,
      options?: { readonly archived?: boolean | undefined }
    ) => Effect.Effect<ReadonlyArray<ProjectView>, NotFound | WorkspaceNotGranted>
    readonly createProject: (
      principal: Principal,
      input: { workspaceId: string; name: string; template?: string | undefined }
    ) => Effect.Effect<{ project: ProjectView; columns: ReadonlyArray<ColumnView> }, InvalidInput | WriteError>
  }
>()("board/core/Workspaces") {
  static readonly layer = Layer.effect(
    Workspaces,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const access = yield* Access

      const create = Effect.fn("Workspaces.create")(function* (principal: Principal, name: string) {
        if (principal.via === "oauth" || principal.via === "intake") {
          return yield* new Forbidden({ message: "workspaces are created with a session token or an API key" })
        }
        if (principal.agent === true) {
          return yield* new Forbidden({ message: "an agent cannot create workspaces; a person creates them" })
        }
        // managing workspaces (issue 33): the admin scope, and a credential for every project
        yield* requireScopes(principal, scopesFor({ manages: true }), "create workspaces")
        if (principal.projects !== undefined) {
          return yield* new Forbidden({
            message: "this API key is limited to some projects: create workspaces with a key for every project"
          })
        }
        const now = yield* sqlNow
        return yield* sql
          .withTransaction(
            Effect.gen(function* () {
              const [ws] = yield* sql<{ id: string; name: string; created_at: Date; updated_at: Date }>`
            INSERT INTO workspaces (name, created_by, created_at, updated_at)
            VALUES (${name.trim()}, ${principal.userId}, ${now}::timestamptz, ${now}::timestamptz)
            RETURNING id, name, created_at, updated_at`
              yield* sql`
            INSERT INTO workspace_members (workspace_id, user_id, role, joined_at)
            VALUES (${ws!.id}, ${principal.userId}, 'owner', ${now}::timestamptz)`
              return toWorkspace({ ...ws!, role: "owner" })
            })
          )
          .pipe(Effect.orDie)
      })

      const list = Effect.fn("Workspaces.list")(function* (principal: Principal) {
        const rows = yield* sql<{
          id: string
          name: string
          role: WorkspaceRole
          created_at: Date
          updated_at: Date
        }>`
          SELECT w.id, w.name, m.role, w.created_at, w.updated_at
          FROM workspaces w JOIN workspace_members m ON m.workspace_id = w.id
          WHERE m.user_id = ${principal.userId}
          ORDER BY w.created_at, w.id`.pipe(Effect.orDie)
        return rows.filter((r) => grantCovers(principal, r.id)).map(toWorkspace)
      })

      const projects = Effect.fn("Workspaces.projects")(function* (
        principal: Principal,
        workspaceId: string,
        options?: { readonly archived?: boolean | undefined }
      ) {
        yield* access.resolve(principal, "workspace", workspaceId)
        const rows = yield* sql<ProjectRow>`
          SELECT ${sql.literal(projectRowColumns)} FROM projects
          WHERE workspace_id = ${workspaceId}
            AND archived_at IS ${options?.archived === true ? sql.literal("NOT NULL") : sql.literal("NULL")}
          ORDER BY created_at, id`.pipe(Effect.orDie)
        // a key limited to some projects sees those only
        return rows.filter((r) => !outsideProjects(principal, r.id)).map(toProject)
      })

      const createProject = Effect.fn("Workspaces.createProject")(function* (
        principal: Principal,
        input: { workspaceId: string; name: string; template?: string | undefined }
      ) {
        // own keys only: "constructor" or "toString" is an unknown template, not Object's prototype
        const columns =
          input.template === undefined
            ? []
            : Object.hasOwn(projectTemplates, input.template)
              ? projectTemplates[input.template]
              : undefined
        if (columns === undefined) {
          return yield* new InvalidInput({
            message: `template: unknown template ${JSON.stringify(input.template)}; use one of: ${Object.keys(projectTemplates).join(", ")}, or omit it for a blank board`
          })
        }
        yield* access.write(principal, "workspace", input.workspaceId, { action: "create projects", manages: true })
        const name = input.name.trim()
        const now = yield* sqlNow
        return yield* sql
          .withTransaction(
            Effect.gen(function* () {
              const [project] = yield* sql<ProjectRow>`
            INSERT INTO projects (workspace_id, name, ref_prefix, created_at, updated_at)
            VALUES (${input.workspaceId}, ${name}, ${refPrefixFor(name)}, ${now}::timestamptz, ${now}::timestamptz)
            RETURNING ${sql.literal(projectRowColumns)}`
              const created: Array<ColumnView> = []
              for (const [position, { name: columnName, kind }] of columns.entries()) {
                const [col] = yield* sql<ColumnRow>`
              INSERT INTO board_columns (project_id, name, position, kind, created_at, updated_at)
              VALUES (${project!.id}, ${columnName}, ${position}, ${kind}, ${now}::timestamptz, ${now}::timestamptz)
              RETURNING ${sql.literal(columnRowColumns)}`
                created.push(toColumn(col!))
              }
              return { project: toProject(project!), columns: created }
            })
          )
          .pipe(Effect.orDie)
      })

      return Workspaces.of({ create, list, projects, createProject })
    })
  )
}
