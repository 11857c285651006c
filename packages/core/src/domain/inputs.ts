/**
 * What a client sends to change the board, as Schemas: written once here, they are the HTTP
 * contract's payloads (`http/src/groups/*.ts`), what MCP tools and the natural-language commands
 * decode their arguments with (`decodeInput`, `domain/decode.ts`), and the types the core's
 * services take. An input that reached a service was decoded: its ids are checked UUIDs branded
 * by what they name, its text keeps the field rules of `text.ts`, its enums are members. What
 * only the database can say (a row exists, the caller may see it) is the services' to check.
 */
import { Schema } from "effect"
import { ActivityBody, ActivityType, ReleaseStatus, TtlSeconds } from "./agentSession.ts"
import { ColumnKind, LinkType, Priority, Relevance, WorkspaceRole } from "./enums.ts"
import { AssigneeFilter, CardId, ColumnId, checkedId, LabelId, ProjectId, UserId } from "./ids.ts"
import { limits } from "./limits.ts"
import { CommentBody, DateTimeInput, Description, Email, MaxString, Name, NonBlank, Position, Title } from "./text.ts"

// ids as clients send them: checked UUIDs, branded by what they name
const projectId = checkedId(ProjectId)
const columnId = checkedId(ColumnId)
const cardId = checkedId(CardId)
const labelId = checkedId(LabelId)

// Workspaces and projects (issue 30)

export const WorkspacePatch = Schema.Struct({ name: Name })
export type WorkspacePatch = typeof WorkspacePatch.Type

/** A partial update of a project's automation: the switches named change, the others stay. */
export const ProjectAutomationPatch = Schema.Struct({
  pullRequestOpened: Schema.optionalKey(Schema.Boolean),
  pullRequestMerged: Schema.optionalKey(Schema.Boolean)
})
export type ProjectAutomationPatch = typeof ProjectAutomationPatch.Type

export const ProjectPatch = Schema.Struct({
  name: Schema.optionalKey(Name),
  /** true archives the project, false restores it. */
  archived: Schema.optionalKey(Schema.Boolean),
  automation: Schema.optionalKey(ProjectAutomationPatch)
})
export type ProjectPatch = typeof ProjectPatch.Type

// Columns

export const ColumnCreate = Schema.Struct({
  projectId,
  name: Name,
  position: Schema.optionalKey(Position),
  kind: Schema.optionalKey(ColumnKind)
})
export type ColumnCreate = typeof ColumnCreate.Type

export const ColumnPatch = Schema.Struct({
  name: Schema.optionalKey(Name),
  position: Schema.optionalKey(Position),
  kind: Schema.optionalKey(ColumnKind)
})
export type ColumnPatch = typeof ColumnPatch.Type

// Labels

export const LabelColor = Schema.String.check(
  Schema.isPattern(/^#[0-9a-fA-F]{6}$/u, { message: "must be a #rrggbb hex colour" })
)

export const LabelCreate = Schema.Struct({ projectId, name: Name, color: Schema.optionalKey(LabelColor) })
export type LabelCreate = typeof LabelCreate.Type

export const LabelAttach = Schema.Struct({ labelId })
export type LabelAttach = typeof LabelAttach.Type

/** A label named by a person or an agent ("add label bug"), found or created by its name. */
export const LabelEnsure = Schema.Struct({ projectId, name: Name })
export type LabelEnsure = typeof LabelEnsure.Type

// Subtasks

export const SubtaskCreate = Schema.Struct({ cardId, title: Title, position: Schema.optionalKey(Position) })
export type SubtaskCreate = typeof SubtaskCreate.Type

// Comments

export const CommentInput = Schema.Struct({ body: CommentBody })
export type CommentInput = typeof CommentInput.Type

// Cards

/** A card's assignees: members of its workspace (a PATCH replaces the set). */
export const AssigneeIds = Schema.Array(checkedId(UserId)).check(
  Schema.isMaxLength(limits.assignees, { message: `at most ${limits.assignees} assignees` })
)

export const CardCreate = Schema.Struct({
  projectId,
  columnId,
  title: Title,
  description: Schema.optionalKey(Description),
  priority: Schema.optionalKey(Priority),
  assigneeIds: Schema.optionalKey(AssigneeIds),
  dueAt: Schema.optionalKey(Schema.NullOr(DateTimeInput))
})
export type CardCreate = typeof CardCreate.Type

export const CardPatch = Schema.Struct({
  title: Schema.optionalKey(Title),
  description: Schema.optionalKey(Schema.NullOr(Description)),
  priority: Schema.optionalKey(Priority),
  assigneeIds: Schema.optionalKey(AssigneeIds),
  dueAt: Schema.optionalKey(Schema.NullOr(DateTimeInput))
})
export type CardPatch = typeof CardPatch.Type

export const CardMove = Schema.Struct({ columnId, position: Schema.optionalKey(Position) })
export type CardMove = typeof CardMove.Type

export const CardLinkCreate = Schema.Struct({ targetId: cardId, linkType: LinkType })
export type CardLinkCreate = typeof CardLinkCreate.Type

// Search

/**
 * A search as the core takes it: the words, how many cards at most, one project, one assignee
 * (`me` or a user id). The HTTP query decodes the same rules from its strings.
 */
export const SearchInput = Schema.Struct({
  q: NonBlank(limits.searchQuery),
  limit: Schema.optionalKey(
    Schema.Int.check(
      Schema.isBetween(
        { minimum: 1, maximum: limits.searchMaxLimit },
        { message: `must be a whole number from 1 to ${limits.searchMaxLimit}` }
      )
    )
  ),
  projectId: Schema.optionalKey(projectId),
  assignee: Schema.optionalKey(AssigneeFilter),
  /** The archived cards instead of the live ones. */
  archived: Schema.optionalKey(Schema.Boolean)
})
export type SearchInput = typeof SearchInput.Type

// Project links

export const LinkTags = Schema.Array(MaxString(limits.linkTag)).check(
  Schema.isMaxLength(limits.linkTags, { message: `must have at most ${limits.linkTags} tags` })
)
// the core parses the rest (WHATWG URL, after trimming); the document adds `format: uri`
export const LinkUrl = MaxString(limits.linkUrl)
  .check(Schema.isPattern(/^\s*[Hh][Tt][Tt][Pp][Ss]?:/u, { message: "must be an absolute http or https URL" }))
  .annotate({ format: "uri" })

export const ProjectLinkSubmit = Schema.Struct({
  url: LinkUrl,
  title: Schema.optionalKey(MaxString(limits.linkTitle)),
  note: Schema.optionalKey(MaxString(limits.linkNote)),
  tags: Schema.optionalKey(LinkTags)
})
export type ProjectLinkSubmit = typeof ProjectLinkSubmit.Type

export const ProjectLinkReview = Schema.Struct({
  title: Schema.optionalKey(Schema.NullOr(MaxString(limits.linkTitle))),
  note: Schema.optionalKey(Schema.NullOr(MaxString(limits.linkNote))),
  tags: Schema.optionalKey(LinkTags),
  relevance: Schema.optionalKey(Relevance),
  reason: Schema.optionalKey(MaxString(limits.linkReason))
})
export type ProjectLinkReview = typeof ProjectLinkReview.Type

// Intake

/** A card filed through an intake token (its column is the token's). */
export const IntakeFiling = Schema.Struct({
  title: NonBlank(limits.intakeTitle),
  description: Schema.optionalKey(MaxString(limits.intakeDescription))
})
export type IntakeFiling = typeof IntakeFiling.Type

/** An intake token for a column; `expiresAt` must be in the future, which only the core can tell. */
export const IntakeTokenMint = Schema.Struct({
  columnId,
  name: Schema.optionalKey(MaxString(limits.name)),
  expiresAt: Schema.optionalKey(Schema.String.annotate({ format: "date-time" }))
})
export type IntakeTokenMint = typeof IntakeTokenMint.Type

// Claims and agent sessions

export const ClaimInput = Schema.Struct({ ttlSeconds: Schema.optionalKey(TtlSeconds) })
export type ClaimInput = typeof ClaimInput.Type

/** What the work queue may take: a column, cards with all these labels, cards assigned to the caller or to nobody. */
export const QueueFilter = Schema.Struct({
  columnId: Schema.optionalKey(columnId),
  labelIds: Schema.optionalKey(Schema.Array(labelId)),
  assignee: Schema.optionalKey(Schema.Literals(["me", "unassigned"])),
  ttlSeconds: Schema.optionalKey(TtlSeconds)
})
export type QueueFilter = typeof QueueFilter.Type

export const ActivityInput = Schema.Struct({ type: ActivityType, body: ActivityBody })
export type ActivityInput = typeof ActivityInput.Type

export const ReleaseInput = Schema.Struct({
  status: Schema.optionalKey(ReleaseStatus),
  moveTo: Schema.optionalKey(columnId)
})
export type ReleaseInput = typeof ReleaseInput.Type

/** POST /v1/workspaces/{id}/members: an existing account by email, with a role (default member). */
export const MemberAdd = Schema.Struct({ email: Email, role: Schema.optionalKey(WorkspaceRole) })
export type MemberAdd = typeof MemberAdd.Type

/** PATCH /v1/workspaces/{id}/members/{userId}: the member's new role. */
export const MemberRolePatch = Schema.Struct({ role: WorkspaceRole })
export type MemberRolePatch = typeof MemberRolePatch.Type
