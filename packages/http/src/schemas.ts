/** Field schemas shared by the endpoint groups; limits come from the core. */
import { limits } from "@board/core"
import { Schema } from "effect"

export const Uuid = Schema.String.check(Schema.isUUID(undefined, { message: "expected a UUID" }))

// PostgreSQL text cannot hold NUL: refuse it at the door with a 400, not a 500 from the database
const noNul = Schema.isPattern(/^[^\u0000]*$/, { message: "must not contain NUL (\\u0000) characters" })

export const NonBlank = (max: number) =>
  Schema.String.check(
    Schema.isMaxLength(max, { message: `must be at most ${max} characters` }),
    Schema.isPattern(/\S/, { message: "must not be blank" }),
    noNul
  )

export const MaxString = (max: number) => Schema.String.check(Schema.isMaxLength(max, { message: `must be at most ${max} characters` }), noNul)

export const Name = NonBlank(limits.name)

export const Timestamp = Schema.String

export const Workspace = Schema.Struct({
  id: Schema.String,
  name: Schema.String,
  role: Schema.Literals(["owner", "member"]),
  createdAt: Timestamp,
  updatedAt: Timestamp
})

export const Project = Schema.Struct({
  id: Schema.String,
  workspaceId: Schema.String,
  name: Schema.String,
  refPrefix: Schema.String,
  createdAt: Timestamp,
  updatedAt: Timestamp
})

export const Column = Schema.Struct({
  id: Schema.String,
  projectId: Schema.String,
  name: Schema.String,
  position: Schema.Int,
  createdAt: Timestamp,
  updatedAt: Timestamp
})

export const WorkspaceMember = Schema.Struct({
  userId: Schema.String,
  email: Schema.String,
  fullName: Schema.String,
  role: Schema.Literals(["owner", "member"]),
  joinedAt: Timestamp
})

export const AuthSession = Schema.Struct({
  session: Schema.Struct({
    access_token: Schema.String,
    token_type: Schema.Literal("bearer"),
    expires_in: Schema.Int,
    expires_at: Timestamp
  }),
  user: Schema.Struct({ id: Schema.String, email: Schema.String, full_name: Schema.String })
})

export const Priority = Schema.Literals(["low", "medium", "high", "urgent"])
export const LinkType = Schema.Literals(["relates_to", "blocks", "duplicates", "is_part_of"])
export const Position = Schema.Int.check(Schema.isGreaterThanOrEqualTo(0, { message: "must be a whole number from 0" }))

export const Label = Schema.Struct({
  id: Schema.String,
  projectId: Schema.String,
  name: Schema.String,
  color: Schema.NullOr(Schema.String),
  createdAt: Timestamp,
  updatedAt: Timestamp
})

export const Subtask = Schema.Struct({
  id: Schema.String,
  cardId: Schema.String,
  title: Schema.String,
  completed: Schema.Boolean,
  position: Schema.Int,
  createdAt: Timestamp,
  updatedAt: Timestamp
})

export const Card = Schema.Struct({
  id: Schema.String,
  projectId: Schema.String,
  columnId: Schema.String,
  position: Schema.Int,
  ref: Schema.String,
  title: Schema.String,
  description: Schema.NullOr(Schema.String),
  priority: Priority,
  labels: Schema.Array(Label),
  subtasks: Schema.Array(Subtask),
  source: Schema.String,
  intakeTokenId: Schema.NullOr(Schema.String),
  createdAt: Timestamp,
  updatedAt: Timestamp
})

export const CardLink = Schema.Struct({
  id: Schema.String,
  sourceId: Schema.String,
  targetId: Schema.String,
  linkType: LinkType,
  direction: Schema.Literals(["outgoing", "incoming"]),
  card: Schema.Struct({ id: Schema.String, ref: Schema.String, title: Schema.String }),
  createdAt: Timestamp,
  updatedAt: Timestamp
})

export const Board = Schema.Struct({
  project: Project,
  columns: Schema.Array(Column),
  cards: Schema.Array(Card),
  labels: Schema.Array(Label)
})

export const Relevance = Schema.Literals(["none", "low", "medium", "high"])

export const Evidence = Schema.Struct({
  signal: Schema.Literals(["url_match", "same_host", "shared_terms"]),
  detail: Schema.String,
  cards: Schema.optionalKey(Schema.Array(Schema.String)),
  terms: Schema.optionalKey(Schema.Array(Schema.String))
})

export const ProjectLink = Schema.Struct({
  id: Schema.String,
  projectId: Schema.String,
  url: Schema.String,
  normalizedUrl: Schema.String,
  title: Schema.NullOr(Schema.String),
  note: Schema.NullOr(Schema.String),
  tags: Schema.Array(Schema.String),
  relevance: Schema.NullOr(Relevance),
  score: Schema.NullOr(Schema.Number),
  evidence: Schema.NullOr(Schema.Array(Evidence)),
  evaluation_source: Schema.NullOr(Schema.Literals(["heuristic", "human"])),
  reviewedBy: Schema.NullOr(Schema.String),
  reviewedAt: Schema.NullOr(Timestamp),
  reviewReason: Schema.NullOr(Schema.String),
  createdAt: Timestamp,
  updatedAt: Timestamp
})
