/**
 * The one access rule: every resource resolves to its workspace; a user who is not a member
 * gets NotFound (missing and not-yours look the same), a member whose credential's grant does
 * not cover the workspace gets WorkspaceNotGranted. Every read goes through `resolve`, every
 * write through `write`, which also asks the caller's role (a viewer changes nothing: Forbidden,
 * 403, naming the role) and the project's state (an archived project changes nothing: Conflict,
 * 409, saying how to restore it). The one-statement writes fold the same rule into their SQL
 * (`writableBy`) and, when they wrote nothing, ask `write` which of the reasons it was.
 *
 * The credential's limits (issue 33) are part of the same decision: its scopes (a read needs
 * `read`; a write `write`, or `delete` when it deletes, and also `admin` when it needs an admin's
 * role: `scopesFor`, from the same `WriteNeeds` that name the role) and its projects (outside
 * them everything is NotFound, as for a non-member; a key limited to projects changes nothing
 * workspace-wide). The SQL forms take them through `reachOf`.
 *
 * Over 400 lines on purpose: the rule's TypeScript form and its SQL form (`writableBy`,
 * `reachOf`) sit side by side so a change to one is made to the other; apart they would drift.
 */
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { Conflict, Forbidden, NotFound, WorkspaceNotGranted } from "../domain/errors.ts"
import type { Principal } from "../domain/Principal.ts"
import { isUuid } from "../domain/ids.ts"
import type { WorkspaceRole } from "../domain/enums.ts"
import type { ApiKeyScope } from "../domain/keyLimits.ts"

export type Role = WorkspaceRole

export type ResourceKind = "workspace" | "project" | "column" | "card" | "label" | "subtask" | "link" | "comment"

export interface Resolved {
  readonly workspaceId: string
  /** The project of the resource (undefined for a workspace). */
  readonly projectId: string | undefined
  readonly role: Role
  /** Whether the resource's project is archived (never for a workspace). */
  readonly archived: boolean
  /** The project's name (undefined for a workspace), for the archived project's message. */
  readonly projectName: string | undefined
}

/** What a write can be refused with: not found, outside the grant, the role, an archived project. */
export type WriteError = NotFound | WorkspaceNotGranted | Forbidden | Conflict

/** How a write names itself: the least role it needs (member unless said) and what it does, in words. */
export interface WriteNeeds {
  /** What is attempted, for the 403's words ("change cards"); the kind's default otherwise. */
  readonly action?: string
  /** The least role (member: works the boards). */
  readonly needed?: Role
  /** The resource's name in a 404 ("intake token …"). */
  readonly what?: string
  /** An operation that works on an archived project (restoring it): no 409. */
  readonly evenArchived?: boolean
  /** The operation deletes (a REST DELETE): the credential needs the `delete` scope rather than `write`. */
  readonly deletes?: boolean
  /**
   * The operation manages (webhooks, intake tokens: what a member may manage): the credential
   * needs the `admin` scope, as it does for every operation needing an admin's role.
   */
  readonly manages?: boolean
}

// The credential's limits (issue 33): scopes and projects.

/** Whether the credential holds `scope` (a session, the web app and an unscoped key hold all). */
export const hasScope = (principal: Principal, scope: ApiKeyScope): boolean =>
  principal.scopes === undefined || principal.scopes.has(scope)

/**
 * The scopes a write needs, from how it names itself: `write`, or `delete` when it deletes, and
 * `admin` besides when its role is admin or owner (managing members, projects, keys...).
 */
export const scopesFor = (needs: WriteNeeds): ReadonlyArray<ApiKeyScope> => [
  needs.deletes === true ? "delete" : "write",
  ...(needs.manages === true || roleReaches(needs.needed ?? "member", "admin") ? (["admin"] as const) : [])
]

const credentialNamed = (principal: Principal) =>
  principal.via === "oauth" ? "this OAuth grant" : principal.agent === true ? "this agent key" : "this API key"

/** The 403's words for a scope the credential lacks: what it holds, what was attempted, the scope it needs. */
export const scopeMissing = (principal: Principal, scope: ApiKeyScope, action: string) =>
  `${credentialNamed(principal)} has the scope${principal.scopes?.size === 1 ? "" : "s"} ${[...(principal.scopes ?? [])].join(", ") || "(none)"}: to ${action} it needs the "${scope}" scope`

/** Fails with Forbidden (403) naming the first of `scopes` the credential lacks. */
export const requireScopes = (
  principal: Principal,
  scopes: ReadonlyArray<ApiKeyScope>,
  action: string
): Effect.Effect<void, Forbidden> => {
  const missing = scopes.find((s) => !hasScope(principal, s))
  return missing === undefined
    ? Effect.void
    : Effect.fail(new Forbidden({ message: scopeMissing(principal, missing, action) }))
}

/** A read's scope check (403 through WorkspaceNotGranted: the credential does not cover reading). */
export const requireRead = (principal: Principal, what: string): Effect.Effect<void, WorkspaceNotGranted> =>
  hasScope(principal, "read")
    ? Effect.void
    : Effect.fail(new WorkspaceNotGranted({ message: scopeMissing(principal, "read", `read ${what.split(" ")[0]}s`) }))

/** Whether a project is outside the projects the credential is limited to. */
export const outsideProjects = (principal: Principal, projectId: string | undefined): boolean =>
  principal.projects !== undefined && projectId !== undefined && !principal.projects.has(projectId)

/** What a write on each kind of resource does, for the 403's words. */
const defaultAction: Record<ResourceKind, string> = {
  workspace: "change this workspace",
  project: "change this project's board",
  column: "change columns",
  card: "change cards",
  label: "change labels",
  subtask: "change subtasks",
  link: "change card links",
  comment: "change comments"
}

export { isUuid }

/**
 * What each role may do, as a rank: a viewer reads; a member also works the boards (every write
 * to cards, columns, labels, links, comments, sessions); an admin also manages members,
 * invitations, the workspace's name and its projects; an owner also deletes the workspace and
 * makes owners. An operation names the least role it needs; `requireRole` is the one check.
 */
export const ROLE_RANK: Record<Role, number> = { viewer: 0, member: 1, admin: 2, owner: 3 }

/** Whether `role` reaches `needed`. */
export const roleReaches = (role: Role, needed: Role): boolean => ROLE_RANK[role] >= ROLE_RANK[needed]

/**
 * Fails with Forbidden (403) naming both roles when `role` does not reach `needed`; `action` says
 * what was attempted, in words a person reads ("change cards", "manage members").
 */
export const requireRole = (role: Role, needed: Role, action: string): Effect.Effect<void, Forbidden> =>
  roleReaches(role, needed)
    ? Effect.void
    : Effect.fail(
        new Forbidden({
          message: `your role in this workspace is ${role}: to ${action} you need to be ${article(needed)} ${needed}${needed === "owner" ? "" : " or above"}`
        })
      )

const article = (role: Role) => (role === "admin" || role === "owner" ? "an" : "a")

/**
 * A `write` that never meets an archived project (on a workspace, or `evenArchived`): its type
 * without the 409 that cannot happen.
 */
export const withoutArchive = <A, E, R>(
  write: Effect.Effect<A, E | Conflict, R>
): Effect.Effect<A, Exclude<E, Conflict>, R> =>
  Effect.catchIf(
    write,
    (e): e is Conflict => e instanceof Conflict,
    (e) => Effect.die(e)
  ) as Effect.Effect<A, Exclude<E, Conflict>, R>

/** The SQL form of "the caller may work the boards": `m.role` from `membershipOf` reaches member. */
export const WRITER_ROLES_SQL = "('owner', 'admin', 'member')"

/**
 * The write half of the rule, once the caller is known to reach the workspace: the role (403
 * naming it), the credential's scopes (403 naming the scope) and projects (a key limited to
 * some changes nothing workspace-wide), then the project's state (409 saying how to restore it).
 */
export const checkWrite = (
  principal: Principal,
  at: {
    readonly role: Role
    readonly archived: boolean
    readonly projectId?: string | undefined
    readonly projectName?: string | undefined
  },
  needs: WriteNeeds & { readonly action: string }
): Effect.Effect<void, Forbidden | Conflict> =>
  Effect.andThen(
    // the role first (what the person may do), then what the credential may do of it
    Effect.andThen(requireRole(at.role, needs.needed ?? "member", needs.action), () =>
      requireScopes(principal, scopesFor(needs), needs.action)
    ),
    // a key limited to projects changes nothing workspace-wide (members, new projects, agents...)
    () =>
      principal.projects !== undefined && at.projectId === undefined
        ? Effect.fail(
            new Forbidden({
              message: `${credentialNamed(principal)} is limited to some projects: to ${needs.action} use a credential for every project`
            })
          )
        : Effect.void
  ).pipe(
    Effect.andThen(() =>
      at.archived && needs.evenArchived !== true
        ? Effect.fail(
            new Conflict({
              message: `project ${at.projectName === undefined ? at.projectId : JSON.stringify(at.projectName)} is archived: it still reads, but nothing in it changes; an admin restores it with PATCH /v1/projects/${at.projectId} {"archived": false}`
            })
          )
        : Effect.void
    )
  )

/**
 * The whole rule for a statement that read the caller's role and the project's state itself
 * (alongside its own work, as `membershipOf` and `projectStateColumns` give them): 404, 403 of
 * the grant, then, for a write (`needs`), the role's 403 and the archive's 409.
 */
export const checkRow = (
  principal: Principal,
  row:
    | {
        readonly workspace_id: string
        readonly role: Role | null
        readonly project_id?: string | null
        readonly archived?: boolean | null
        readonly project_name?: string | null
      }
    | undefined,
  what: string,
  needs?: WriteNeeds & { readonly action: string }
): Effect.Effect<Role, WriteError> =>
  Effect.flatMap(
    checkReach(principal, row?.workspace_id ?? "", row?.role ?? undefined, what, row?.project_id),
    (role): Effect.Effect<Role, WriteError> =>
      needs === undefined
        ? Effect.as(requireRead(principal, what), role)
        : Effect.as(
            checkWrite(
              principal,
              {
                role,
                archived: row?.archived === true,
                projectId: row?.project_id ?? undefined,
                projectName: row?.project_name ?? undefined
              },
              needs
            ),
            role
          )
  )

/** The columns `checkRow` reads of a project `p`: whether it is archived, and its name. */
export const projectStateColumns = (p = "p") => `${p}.archived_at IS NOT NULL AS archived, ${p}.name AS project_name`

/** Whether the principal's credential reaches the workspace (an OAuth grant names its workspaces). */
export const grantCovers = (principal: Principal, workspaceId: string): boolean =>
  principal.workspaces === "all" || principal.workspaces.has(workspaceId)

/**
 * Whether the caller reaches the resource (its workspace's member, within the credential's
 * workspaces and projects), without the scope: 404 for a non-member and outside a key's
 * projects, 403 outside an OAuth grant's workspaces.
 */
export const checkReach = (
  principal: Principal,
  workspaceId: string,
  role: Role | undefined,
  what: string,
  projectId?: string | null
): Effect.Effect<Role, NotFound | WorkspaceNotGranted> =>
  role === undefined ||
  outsideProjects(principal, projectId ?? undefined) ||
  (principal.projects !== undefined && !grantCovers(principal, workspaceId))
    ? Effect.fail(new NotFound({ message: `${what} not found` }))
    : !grantCovers(principal, workspaceId)
      ? Effect.fail(new WorkspaceNotGranted({ message: grantMissing(what) }))
      : Effect.succeed(role)

/** The rule for a read of a resource whose workspace, role (and project) the caller read: `checkReach` and the `read` scope. */
export const checkGrant = (
  principal: Principal,
  workspaceId: string,
  role: Role | undefined,
  what: string,
  projectId?: string | null
): Effect.Effect<Role, NotFound | WorkspaceNotGranted> =>
  Effect.tap(checkReach(principal, workspaceId, role, what, projectId), () => requireRead(principal, what))

// The rule in SQL, for statements that check access in the same round trip as their work (the
// hot reads and the one-statement writes) or that list what a principal can see. The parameter
// slots (`$n`) are the caller's; these are the only places the membership table is joined for it.

/** The caller's membership of `workspace` as `m` (its `m.role` is NULL for a non-member). */
export const membershipOf = (workspace: string, user: string) =>
  `LEFT JOIN workspace_members m ON m.workspace_id = ${workspace} AND m.user_id = ${user}`

/**
 * The credential's reach in SQL: `reach` is `reachOf`'s value (NULL: everything; otherwise the
 * workspaces of an OAuth grant or the projects of a key, whose ids never collide).
 */
const withinReach = (workspace: string, project: string, reach: string) =>
  `(${reach}::uuid[] IS NULL OR ${workspace} = ANY(${reach}::uuid[]) OR ${project} = ANY(${reach}::uuid[]))`

/**
 * `$n` of the caller's visibility: a member of the workspace, within the credential's reach
 * (an OAuth grant's workspaces, a key's projects: `project` is the row's project id).
 */
export const visibleTo = (workspace: string, user: string, reach: string, project: string) =>
  `EXISTS (SELECT 1 FROM workspace_members m WHERE m.workspace_id = ${workspace} AND m.user_id = ${user})
   AND ${withinReach(workspace, project, reach)}`

/**
 * `$n` of the caller's write access, for the one-statement writes: `visibleTo`, with a role that
 * works the boards, on a project `project` that is not archived. A statement that finds nothing
 * asks `Access.write` why (404, 403 or 409).
 */
export const writableBy = (workspace: string, user: string, reach: string, project = "p") =>
  `${project}.archived_at IS NULL
   AND EXISTS (SELECT 1 FROM workspace_members m WHERE m.workspace_id = ${workspace} AND m.user_id = ${user} AND m.role IN ${WRITER_ROLES_SQL})
   AND ${withinReach(workspace, `${project}.id`, reach)}`

/**
 * The value of the SQL forms' `reach` slot for an operation needing `scopes` (a read: `read`;
 * a write: `scopesFor(needs)`): NULL for a credential that reaches all the user's workspaces,
 * the projects of a key limited to some, the workspaces of an OAuth grant, and nothing (an
 * empty list) when a scope is missing, so the statement finds nothing and the caller asks
 * `resolve`/`write`, which say why (403 naming the scope).
 */
export const reachOf = (principal: Principal, scopes: ReadonlyArray<ApiKeyScope> = ["read"]): Array<string> | null =>
  !scopes.every((s) => hasScope(principal, s))
    ? []
    : principal.projects !== undefined
      ? [...principal.projects].filter(isUuid)
      : principal.workspaces === "all"
        ? null
        : [...principal.workspaces].filter(isUuid)

const grantMissing = (what: string) => {
  const kind = what.split(" ")[0]
  return kind === "workspace"
    ? "this credential's grant does not cover this workspace"
    : `this credential's grant does not cover the workspace of this ${kind}`
}

// Each kind's path to its project; the workspace and the caller's membership are joined once.
const projectOf: Record<Exclude<ResourceKind, "workspace">, string> = {
  project: "SELECT id AS project_id FROM projects WHERE id = $1",
  column: "SELECT project_id FROM board_columns WHERE id = $1",
  card: "SELECT project_id FROM cards WHERE id = $1",
  label: "SELECT project_id FROM labels WHERE id = $1",
  subtask: "SELECT c.project_id FROM subtasks s JOIN cards c ON c.id = s.card_id WHERE s.id = $1",
  link: "SELECT c.project_id FROM card_links l JOIN cards c ON c.id = l.source_id WHERE l.id = $1",
  comment: "SELECT c.project_id FROM comments k JOIN cards c ON c.id = k.card_id WHERE k.id = $1"
}

const resolveSql = (kind: Exclude<ResourceKind, "workspace">) => `
  SELECT p.workspace_id, p.id AS project_id, m.role, ${projectStateColumns()}
  FROM (${projectOf[kind]}) r
  JOIN projects p ON p.id = r.project_id
  ${membershipOf("p.workspace_id", "$2")}`

export class Access extends Context.Service<
  Access,
  {
    /** Resolves any resource to its workspace and checks the caller may act there. */
    readonly resolve: (
      principal: Principal,
      kind: ResourceKind,
      id: string,
      what?: string
    ) => Effect.Effect<Resolved, NotFound | WorkspaceNotGranted>
    /**
     * `resolve` for a write: also the caller's role (member unless `needs.needed` says more;
     * Forbidden naming it) and, below a workspace, the project's state (an archived project:
     * Conflict, unless `needs.evenArchived`).
     */
    readonly write: (
      principal: Principal,
      kind: ResourceKind,
      id: string,
      needs?: WriteNeeds
    ) => Effect.Effect<Resolved, WriteError>
    /**
     * Which of these (user, workspace) pairs are still memberships, in one statement: how what
     * stays open (an event stream) re-checks the rule (auth/CredentialWatch.ts). Answers
     * `user/workspace` keys.
     */
    readonly members: (
      pairs: ReadonlyArray<{ readonly userId: string; readonly workspaceId: string }>
    ) => Effect.Effect<ReadonlySet<string>>
  }
>()("board/core/Access") {
  static readonly layer = Layer.effect(
    Access,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      // where the resource is and whether the caller reaches it, without the scope
      const locate = (principal: Principal, kind: ResourceKind, id: string, what = `${kind} ${id}`) =>
        Effect.gen(function* () {
          if (!isUuid(id)) return yield* new NotFound({ message: `${what} not found` })
          if (kind === "workspace") {
            const rows = yield* sql<{ role: Role }>`
              SELECT role FROM workspace_members WHERE workspace_id = ${id} AND user_id = ${principal.userId}`.pipe(
              Effect.orDie
            )
            const role = yield* checkReach(principal, id, rows[0]?.role, what)
            return { workspaceId: id, projectId: undefined, role, archived: false, projectName: undefined }
          }
          const rows = yield* sql
            .unsafe<{
              workspace_id: string
              project_id: string
              role: Role | null
              archived: boolean
              project_name: string
            }>(resolveSql(kind), [id, principal.userId])
            .pipe(Effect.orDie)
          const row = rows[0]
          const role = yield* checkReach(
            principal,
            row?.workspace_id ?? "",
            row?.role ?? undefined,
            what,
            row?.project_id
          )
          return {
            workspaceId: row!.workspace_id,
            projectId: row!.project_id,
            role,
            archived: row!.archived,
            projectName: row!.project_name
          }
        })
      const resolve = (principal: Principal, kind: ResourceKind, id: string, what = `${kind} ${id}`) =>
        Effect.tap(locate(principal, kind, id, what), () => requireRead(principal, what))
      const write = (principal: Principal, kind: ResourceKind, id: string, needs: WriteNeeds = {}) =>
        Effect.tap(locate(principal, kind, id, needs.what), (at) =>
          checkWrite(principal, at, { ...needs, action: needs.action ?? defaultAction[kind] })
        )
      const members = (pairs: ReadonlyArray<{ readonly userId: string; readonly workspaceId: string }>) =>
        pairs.length === 0
          ? Effect.succeed(new Set<string>())
          : sql
              .unsafe<{ user_id: string; workspace_id: string }>(
                `SELECT m.user_id, m.workspace_id FROM workspace_members m
                 JOIN unnest($1::uuid[], $2::uuid[]) AS v(user_id, workspace_id)
                   ON m.user_id = v.user_id AND m.workspace_id = v.workspace_id`,
                [pairs.map((p) => p.userId), pairs.map((p) => p.workspaceId)]
              )
              .pipe(
                Effect.orDie,
                Effect.map((rows) => new Set(rows.map((r) => `${r.user_id}/${r.workspace_id}`)))
              )
      return Access.of({ resolve, write, members })
    })
  )
}
