/** Row → response mappers: the one place database column names meet the camelCase wire names. */
export const iso = (d: Date | string): string => (d instanceof Date ? d : new Date(d)).toISOString()

export interface WorkspaceView {
  readonly id: string
  readonly name: string
  readonly role: "owner" | "member"
  readonly createdAt: string
  readonly updatedAt: string
}

export const toWorkspace = (r: {
  id: string
  name: string
  role: "owner" | "member"
  created_at: Date
  updated_at: Date
}): WorkspaceView => ({
  id: r.id,
  name: r.name,
  role: r.role,
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at)
})

export interface ProjectView {
  readonly id: string
  readonly workspaceId: string
  readonly name: string
  readonly refPrefix: string
  readonly createdAt: string
  readonly updatedAt: string
}

export const toProject = (r: {
  id: string
  workspace_id: string
  name: string
  ref_prefix: string
  created_at: Date
  updated_at: Date
}): ProjectView => ({
  id: r.id,
  workspaceId: r.workspace_id,
  name: r.name,
  refPrefix: r.ref_prefix,
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at)
})

export interface ColumnView {
  readonly id: string
  readonly projectId: string
  readonly name: string
  readonly position: number
  readonly createdAt: string
  readonly updatedAt: string
}

export const toColumn = (r: {
  id: string
  project_id: string
  name: string
  position: number
  created_at: Date
  updated_at: Date
}): ColumnView => ({
  id: r.id,
  projectId: r.project_id,
  name: r.name,
  position: r.position,
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at)
})

export interface MemberView {
  /** A membership is named by its user: one per user and workspace. */
  readonly id: string
  readonly userId: string
  readonly email: string
  readonly fullName: string
  readonly role: "owner" | "member"
  readonly joinedAt: string
  readonly createdAt: string
  readonly updatedAt: string
}

export const toMember = (r: {
  user_id: string
  email: string
  full_name: string
  role: "owner" | "member"
  joined_at: Date
}): MemberView => ({
  id: r.user_id,
  userId: r.user_id,
  email: r.email,
  fullName: r.full_name,
  role: r.role,
  joinedAt: iso(r.joined_at),
  // a membership does not change once made
  createdAt: iso(r.joined_at),
  updatedAt: iso(r.joined_at)
})
