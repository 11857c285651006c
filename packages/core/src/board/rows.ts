/**
 * Row → response mappers: the one place database column names meet the camelCase wire names, and
 * where the database's ids become the domain's branded ids.
 */
import type { Column } from "../domain/board.ts"
import type { ColumnKind, WorkspaceRole } from "../domain/enums.ts"
import type { ColumnId, ProjectId, UserId, WorkspaceId } from "../domain/ids.ts"
import type { Member, MemberKind, Project, ProjectAutomation, Workspace } from "../domain/workspace.ts"

export const iso = (d: Date | string): string => (d instanceof Date ? d : new Date(d)).toISOString()

export type WorkspaceView = Workspace

export const toWorkspace = (r: {
  id: string
  name: string
  role: WorkspaceRole
  created_at: Date
  updated_at: Date
}): WorkspaceView => ({
  id: r.id as WorkspaceId,
  name: r.name,
  role: r.role,
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at)
})

export type ProjectView = Project

/** A `projects` row as the queries select it (`projectRowColumns`). */
export interface ProjectRow {
  readonly id: string
  readonly workspace_id: string
  readonly name: string
  readonly ref_prefix: string
  readonly archived_at: Date | null
  /** jsonb: the drivers hand an object (a string only from a json-as-text path). */
  readonly automation: unknown
  readonly created_at: Date
  readonly updated_at: Date
}

/** The columns a ProjectRow is selected with. */
export const projectRowColumns = "id, workspace_id, name, ref_prefix, archived_at, automation, created_at, updated_at"

/** A switch of the stored automation: on unless stored as false (as `projectAutomationJson` reads it). */
const switchOn = (stored: unknown, key: string): boolean =>
  !(typeof stored === "object" && stored !== null && (stored as Record<string, unknown>)[key] === false)

export const toAutomation = (stored: unknown): ProjectAutomation => {
  const value = typeof stored === "string" ? (JSON.parse(stored) as unknown) : stored
  return {
    pullRequestOpened: switchOn(value, "pullRequestOpened"),
    pullRequestMerged: switchOn(value, "pullRequestMerged")
  }
}

/**
 * The SQL of a project's `automation` JSON (alias `p`), for the statements that write the
 * Project shape (the board): the same keys and values as `toAutomation`, no whitespace.
 */
export const projectAutomationJson = (alias: string): string =>
  `concat('{"pullRequestOpened":', CASE WHEN ${alias}.automation->'pullRequestOpened' = 'false'::jsonb THEN 'false' ELSE 'true' END,
    ',"pullRequestMerged":', CASE WHEN ${alias}.automation->'pullRequestMerged' = 'false'::jsonb THEN 'false' ELSE 'true' END, '}')`

export const toProject = (r: ProjectRow): ProjectView => ({
  id: r.id as ProjectId,
  workspaceId: r.workspace_id as WorkspaceId,
  name: r.name,
  refPrefix: r.ref_prefix,
  archivedAt: r.archived_at === null ? null : iso(r.archived_at),
  automation: toAutomation(r.automation),
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at)
})

export type ColumnView = Column

/** A `board_columns` row as the queries select it. */
export interface ColumnRow {
  readonly id: string
  readonly project_id: string
  readonly name: string
  readonly position: number
  readonly kind: ColumnKind
  readonly created_at: Date
  readonly updated_at: Date
}

/** The columns a ColumnRow is selected with. */
export const columnRowColumns = "id, project_id, name, position, kind, created_at, updated_at"

export const toColumn = (r: ColumnRow): ColumnView => ({
  id: r.id as ColumnId,
  projectId: r.project_id as ProjectId,
  name: r.name,
  position: r.position,
  kind: r.kind,
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at)
})

export type MemberView = Member

export const toMember = (r: {
  user_id: string
  email: string
  full_name: string
  role: WorkspaceRole
  /** users.kind (migrations/0022, `memberKindSql` in Members.ts). */
  kind: MemberKind | string
  joined_at: Date
}): MemberView => ({
  id: r.user_id as UserId,
  userId: r.user_id as UserId,
  // an agent's account has no address ('agent:<id>'): none is shown
  email: r.kind === "agent" ? "" : r.email,
  fullName: r.full_name,
  role: r.role,
  kind: r.kind === "agent" ? "agent" : "person",
  joinedAt: iso(r.joined_at),
  // the membership's own times (a role change keeps no time of its own)
  createdAt: iso(r.joined_at),
  updatedAt: iso(r.joined_at)
})
