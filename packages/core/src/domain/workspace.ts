/** Workspaces, their projects and their members, as clients see them. */
import { Schema } from "effect"
import { WorkspaceRole } from "./enums.ts"
import { ProjectId, UserId, WorkspaceId } from "./ids.ts"
import { Timestamp } from "./text.ts"

export const Workspace = Schema.Struct({
  id: WorkspaceId,
  name: Schema.String,
  /** The caller's role in it. */
  role: WorkspaceRole,
  createdAt: Timestamp,
  updatedAt: Timestamp
}).annotate({
  identifier: "Workspace",
  description: "A workspace the caller belongs to, with the caller's role in it."
})
export type Workspace = typeof Workspace.Type

/** What a forge's pull requests may do to a project's cards (issue 31); both on unless turned off. */
export const ProjectAutomation = Schema.Struct({
  /** A pull request opened for a card moves it from a `todo` column to the first `in_progress` one. */
  pullRequestOpened: Schema.Boolean,
  /** A pull request merged with close intent moves its card to the first `done` column. */
  pullRequestMerged: Schema.Boolean
}).annotate({ identifier: "ProjectAutomation", description: "The project's forge automation switches." })
export type ProjectAutomation = typeof ProjectAutomation.Type

export const Project = Schema.Struct({
  id: ProjectId,
  workspaceId: WorkspaceId,
  name: Schema.String,
  /** What its card refs start with (`WEB` of `WEB-12`). */
  refPrefix: Schema.String,
  /** When it was archived (it then leaves the project list, and its board only reads), or null. */
  archivedAt: Schema.NullOr(Timestamp).annotate({ description: "When the project was archived, or null." }),
  automation: ProjectAutomation,
  createdAt: Timestamp,
  updatedAt: Timestamp
}).annotate({ identifier: "Project", description: "A project of a workspace: one board." })
export type Project = typeof Project.Type

/** What a member is: a person, or an agent (an account made by an admin, never a seat). */
export const MemberKind = Schema.Literals(["person", "agent"])
export type MemberKind = typeof MemberKind.Type

export const Member = Schema.Struct({
  /** A membership is named by its user: one per user and workspace. */
  id: UserId,
  userId: UserId,
  email: Schema.String,
  fullName: Schema.String,
  role: WorkspaceRole,
  kind: MemberKind,
  joinedAt: Timestamp,
  createdAt: Timestamp,
  updatedAt: Timestamp
}).annotate({
  identifier: "Member",
  description:
    "A member of a workspace (CONTRACT.md's WorkspaceMember): who, their role, and whether a person or an agent."
})
export type Member = typeof Member.Type
