/** A card with its labels and subtasks, as clients see it. */
import { Schema } from "effect"
import { CardClaim } from "./agentSession.ts"
import { Priority } from "./enums.ts"
import { PullRequestMark } from "./forge.ts"
import { CardId, ColumnId, IntakeTokenId, LabelId, ProjectId, SubtaskId, UserId } from "./ids.ts"
import { Timestamp } from "./text.ts"

export const Label = Schema.Struct({
  id: LabelId,
  projectId: ProjectId,
  name: Schema.String,
  color: Schema.NullOr(Schema.String),
  createdAt: Timestamp,
  updatedAt: Timestamp
}).annotate({ identifier: "Label", description: "A label of a project, attached to any of its cards." })
export type Label = typeof Label.Type

export const Subtask = Schema.Struct({
  id: SubtaskId,
  cardId: CardId,
  title: Schema.String,
  completed: Schema.Boolean,
  position: Schema.Int,
  createdAt: Timestamp,
  updatedAt: Timestamp
}).annotate({
  identifier: "Subtask",
  description: "A checklist item of a card, in its place among the card's subtasks."
})
export type Subtask = typeof Subtask.Type

export const Card = Schema.Struct({
  id: CardId,
  projectId: ProjectId,
  columnId: ColumnId,
  position: Schema.Int.annotate({ description: "Its 0-based place in its column." }),
  ref: Schema.String.annotate({ description: "Its project's prefix and number (`WEB-12`): unique in its project." }),
  title: Schema.String,
  description: Schema.NullOr(Schema.String),
  priority: Priority,
  labels: Schema.Array(Label),
  subtasks: Schema.Array(Subtask),
  assigneeIds: Schema.Array(UserId).annotate({
    description: "Members of the card's workspace, in the order they were assigned (then by id)."
  }),
  dueAt: Schema.NullOr(Timestamp).annotate({ description: "When the card is due, or null." }),
  source: Schema.String.annotate({
    description: "`api` for cards made by members, `intake` for cards filed through an intake token."
  }),
  intakeTokenId: Schema.NullOr(IntakeTokenId),
  createdAt: Timestamp,
  updatedAt: Timestamp,
  archivedAt: Schema.NullOr(Timestamp).annotate({
    description:
      "When the card was archived (it is then out of the board, search and the queue, its `position` 0), else null."
  }),
  claim: Schema.NullOr(CardClaim).annotate({
    description: "The live agent session holding the card while its lease is unexpired, else null."
  }),
  shippedAt: Schema.NullOr(Timestamp).annotate({
    description: "When a deployment last shipped a change linked to the card, or null."
  }),
  shippedTo: Schema.NullOr(Schema.String).annotate({
    description: "The environment that deployment shipped to (`production`), or null."
  }),
  pullRequestMark: Schema.NullOr(PullRequestMark).annotate({
    description:
      "The board's compact mark of the card's linked pull requests: `checks_failing` (one not closed has failing checks), else `open` (one open or draft), else `merged`, else null. `shippedAt` says shipped."
  })
}).annotate({
  identifier: "Card",
  description: "A card with its labels, subtasks, assignees and claim, in its place in its column."
})
export type Card = typeof Card.Type
