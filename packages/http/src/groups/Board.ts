/** The board and its parts: SPEC.md's Cards, Columns, Labels, Subtasks and Card links sections. */
import {
  AssigneeFilter,
  Board,
  Card,
  CARD_ID_OR_REF,
  CardCreate,
  CardId,
  CardLink,
  CardLinkCreate,
  CardLinkId,
  CardMove,
  CardPatch,
  checkedId,
  Column,
  ColumnCreate,
  ColumnId,
  ColumnPatch,
  Comment,
  CommentId,
  CommentInput,
  CommentPage,
  Label,
  LabelAttach,
  LabelCreate,
  LabelId,
  limits,
  NonBlank,
  ProjectId,
  Subtask,
  SubtaskCreate,
  SubtaskId
} from "@board/core/contract"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { BadRequest, Conflict, Forbidden, NotFound } from "../errors.ts"
import { UserAuth } from "../middleware/Authentication.ts"
import { documentParameters, integerSchema, QueryInt, doc } from "../schemas.ts"

// ids as clients send them: checked UUIDs, branded by what they name
const cardId = checkedId(CardId)
const columnId = checkedId(ColumnId)
const projectId = checkedId(ProjectId)
const labelId = checkedId(LabelId)
const commentId = checkedId(CommentId)
const commentPage = { minimum: 1, maximum: limits.commentPageMax }
/**
 * GET /v1/cards/{id} also takes the card's ref (`WEB-12`, any case), resolved among the projects
 * the caller can see: 404 when none has it (as for an id), 403 when only a workspace outside the
 * credential's grant does (as for an id), and 400 when several of the caller's projects do. Refs
 * are unique per project, not globally, so that request does not name one card: the client
 * must change it (use the card id), which is what 400 says; 404 would deny a card the caller
 * can see, and 409 speaks of the resource's state, not of an ambiguous name. Anything that is
 * neither an id nor a ref is malformed (400), as before.
 */
const cardIdOrRefText = "card id (UUID) or ref such as WEB-12"
const cardIdOrRef = {
  id: Schema.String.check(
    Schema.isPattern(CARD_ID_OR_REF, { message: "expected a card id (a UUID) or a ref such as WEB-12" })
  ).annotate({ description: cardIdOrRefText })
}
// the parameter's own description, which documentation tools show beside its name
const describeCardIdOrRef = (op: Record<string, unknown>) => ({
  ...op,
  parameters: ((op.parameters ?? []) as Array<{ name: string }>).map((p) =>
    p.name === "id" ? { ...p, description: cardIdOrRefText } : p
  )
})
const searchLimit = { minimum: 1, maximum: limits.searchMaxLimit }
const archivedQuery = Schema.optionalKey(
  Schema.Literals(["true", "false"]).annotate({ message: "expected true or false" })
)

export class BoardGroup extends HttpApiGroup.make("board")
  .add(
    HttpApiEndpoint.get("board", "/v1/board/:projectId", {
      params: { projectId },
      query: { assignee: Schema.optionalKey(AssigneeFilter), archived: archivedQuery },
      success: Board,
      error: [Forbidden, NotFound]
    }).annotateMerge(
      doc(
        "Get a project's board",
        "The project with all its columns, cards (in column order, then position order) and labels. `assignee` keeps the cards assigned to a user (`me`, a user id, or `unassigned`). Archived cards are left out; `archived=true` lists them instead (newest archive first, each at `position` 0)."
      )
    )
  )
  .add(
    HttpApiEndpoint.post("createCard", "/v1/cards", {
      payload: CardCreate,
      success: Card.pipe(HttpApiSchema.status(201)),
      error: [BadRequest, Forbidden, NotFound, Conflict]
    }).annotateMerge(
      doc("Create a card", "Creates a card at the end of a column. It gets the next ref of its project (`WEB-12`).")
    )
  )
  .add(
    HttpApiEndpoint.get("getCard", "/v1/cards/:id", {
      params: cardIdOrRef,
      success: Card,
      error: [BadRequest, Forbidden, NotFound]
    })
      .annotateMerge(
        doc(
          "Get a card",
          "A card by its id, or by its ref (`WEB-12`, any case) among the projects the caller can see; 400 when several of the caller's projects have that ref (use the id)."
        )
      )
      .annotate(OpenApi.Transform, describeCardIdOrRef)
  )
  .add(
    HttpApiEndpoint.patch("updateCard", "/v1/cards/:id", {
      params: { id: cardId },
      payload: CardPatch,
      success: Card,
      error: [BadRequest, Forbidden, NotFound, Conflict]
    }).annotateMerge(
      doc(
        "Update a card",
        "Changes the fields sent; `description` and `dueAt` accept null to clear them, and `assigneeIds` replaces the set (members of the card's workspace)."
      )
    )
  )
  .add(
    HttpApiEndpoint.delete("deleteCard", "/v1/cards/:id", {
      params: { id: cardId },
      success: HttpApiSchema.NoContent,
      error: [Forbidden, NotFound, Conflict]
    }).annotateMerge(doc("Delete a card", "Deletes a card with its subtasks, label attachments, links and comments."))
  )
  .add(
    HttpApiEndpoint.post("archiveCard", "/v1/cards/:id/archive", {
      params: { id: cardId },
      success: Card,
      error: [Conflict, Forbidden, NotFound]
    }).annotateMerge(
      doc(
        "Archive a card",
        "Takes the card out of the board, search and the work queue, keeping it whole (ref, comments, history); its live agent session is released. Archiving an archived card changes nothing. Event: `card.archived`."
      )
    )
  )
  .add(
    HttpApiEndpoint.post("restoreCard", "/v1/cards/:id/restore", {
      params: { id: cardId },
      success: Card,
      error: [Conflict, Forbidden, NotFound]
    }).annotateMerge(
      doc(
        "Restore a card",
        "Puts an archived card back on the board, at the end of its column. Restoring a live card changes nothing. Event: `card.restored`."
      )
    )
  )
  .add(
    HttpApiEndpoint.post("moveCard", "/v1/cards/:id/move", {
      params: { id: cardId },
      payload: CardMove,
      success: Card,
      error: [BadRequest, Forbidden, NotFound, Conflict]
    }).annotateMerge(
      doc(
        "Move a card",
        "Moves a card to a column of its project, at `position` (0-based) or at the end; the other cards close ranks. An archived card is refused (409): restore it first."
      )
    )
  )
  .add(
    HttpApiEndpoint.get("search", "/v1/search", {
      query: {
        q: NonBlank(limits.searchQuery),
        limit: Schema.optionalKey(QueryInt(searchLimit)),
        projectId: Schema.optionalKey(projectId),
        assignee: Schema.optionalKey(AssigneeFilter),
        archived: archivedQuery
      },
      success: Schema.Array(Card),
      error: BadRequest
    })
      .annotateMerge(
        doc(
          "Search cards",
          "Cards whose title or description contains every word of `q`, across the projects the caller can see or within one project, best matches first. Archived cards are left out; `archived=true` searches them instead."
        )
      )
      .annotate(OpenApi.Transform, documentParameters({ replace: { limit: integerSchema(searchLimit) } }))
  )
  .add(
    HttpApiEndpoint.post("createColumn", "/v1/columns", {
      payload: ColumnCreate,
      success: Column.pipe(HttpApiSchema.status(201)),
      error: [BadRequest, Forbidden, NotFound, Conflict]
    }).annotateMerge(
      doc(
        "Create a column",
        "Adds a column to a project, at `position` or at the end. Without `kind` it is `todo` on a board with no column yet and `in_progress` otherwise."
      )
    )
  )
  .add(
    HttpApiEndpoint.patch("updateColumn", "/v1/columns/:id", {
      params: { id: columnId },
      payload: ColumnPatch,
      success: Column,
      error: [BadRequest, Forbidden, NotFound, Conflict]
    }).annotateMerge(
      doc(
        "Update a column",
        "Renames a column, moves it to another position among the project's columns and/or sets its `kind` (`todo`, `in_progress`, `done`)."
      )
    )
  )
  .add(
    HttpApiEndpoint.delete("deleteColumn", "/v1/columns/:id", {
      params: { id: columnId },
      success: HttpApiSchema.NoContent,
      error: [Forbidden, NotFound, Conflict]
    }).annotateMerge(doc("Delete a column", "Deletes an empty column; 409 while it still holds cards."))
  )
  .add(
    HttpApiEndpoint.post("createLabel", "/v1/labels", {
      payload: LabelCreate,
      success: Label.pipe(HttpApiSchema.status(201)),
      error: [BadRequest, Forbidden, NotFound, Conflict]
    }).annotateMerge(
      doc(
        "Create a label",
        "Creates a label in a project; `color` is `#rrggbb`. 409 when the project has a label of that name."
      )
    )
  )
  .add(
    HttpApiEndpoint.post("attachLabel", "/v1/cards/:id/labels", {
      params: { id: cardId },
      payload: LabelAttach,
      success: Card,
      error: [BadRequest, Forbidden, NotFound, Conflict]
    }).annotateMerge(
      doc(
        "Attach a label to a card",
        "Attaches a label of the card's project to the card and answers the card. Attaching it again changes nothing."
      )
    )
  )
  .add(
    HttpApiEndpoint.delete("detachLabel", "/v1/cards/:id/labels/:labelId", {
      params: { id: cardId, labelId },
      success: HttpApiSchema.NoContent,
      error: [Forbidden, NotFound, Conflict]
    }).annotateMerge(doc("Detach a label from a card", "Removes a label from a card."))
  )
  .add(
    HttpApiEndpoint.post("createSubtask", "/v1/subtasks", {
      payload: SubtaskCreate,
      success: Subtask.pipe(HttpApiSchema.status(201)),
      error: [BadRequest, Forbidden, NotFound, Conflict]
    }).annotateMerge(doc("Create a subtask", "Adds a checklist item to a card, at `position` or at the end."))
  )
  .add(
    HttpApiEndpoint.post("toggleSubtask", "/v1/subtasks/:id/toggle", {
      params: { id: checkedId(SubtaskId) },
      success: Subtask,
      error: [Forbidden, NotFound, Conflict]
    }).annotateMerge(
      doc("Toggle a subtask", "Flips a subtask between done and not done and answers it with its new state.")
    )
  )
  .add(
    HttpApiEndpoint.delete("deleteSubtask", "/v1/subtasks/:id", {
      params: { id: checkedId(SubtaskId) },
      success: HttpApiSchema.NoContent,
      error: [Forbidden, NotFound, Conflict]
    }).annotateMerge(doc("Delete a subtask", "Deletes a subtask; the others close ranks."))
  )
  .add(
    HttpApiEndpoint.get("listCardLinks", "/v1/cards/:id/links", {
      params: { id: cardId },
      success: Schema.Array(CardLink),
      error: [Forbidden, NotFound]
    }).annotateMerge(
      doc(
        "List a card's links",
        "The links of a card to other cards, each seen from this card (`direction`), with the card at the other end."
      )
    )
  )
  .add(
    HttpApiEndpoint.post("createCardLink", "/v1/cards/:id/links", {
      params: { id: cardId },
      payload: CardLinkCreate,
      success: CardLink.pipe(HttpApiSchema.status(201)),
      error: [BadRequest, Forbidden, NotFound, Conflict]
    }).annotateMerge(
      doc(
        "Link two cards",
        "Links the card to another card of the same workspace (`relates_to`, `blocks`, `duplicates`, `is_part_of`)."
      )
    )
  )
  .add(
    HttpApiEndpoint.delete("deleteCardLink", "/v1/links/:id", {
      params: { id: checkedId(CardLinkId) },
      success: HttpApiSchema.NoContent,
      error: [Forbidden, NotFound, Conflict]
    }).annotateMerge(doc("Delete a card link", "Deletes a link between two cards."))
  )
  .add(
    HttpApiEndpoint.post("createComment", "/v1/cards/:id/comments", {
      params: { id: cardId },
      payload: CommentInput,
      success: Comment.pipe(HttpApiSchema.status(201)),
      error: [BadRequest, Forbidden, NotFound, Conflict]
    }).annotateMerge(
      doc(
        "Comment on a card",
        "Adds a Markdown comment to a card, written by the caller (an OAuth client comments as an agent)."
      )
    )
  )
  .add(
    HttpApiEndpoint.get("listComments", "/v1/cards/:id/comments", {
      params: { id: cardId },
      query: {
        limit: Schema.optionalKey(QueryInt(commentPage)),
        offset: Schema.optionalKey(QueryInt({ minimum: 0 }))
      },
      success: CommentPage,
      error: [BadRequest, Forbidden, NotFound]
    })
      .annotateMerge(doc("List a card's comments", "A page of a card's comments, oldest first, with the total."))
      .annotate(
        OpenApi.Transform,
        documentParameters({ replace: { limit: integerSchema(commentPage), offset: integerSchema({ minimum: 0 }) } })
      )
  )
  .add(
    HttpApiEndpoint.patch("updateComment", "/v1/comments/:id", {
      params: { id: commentId },
      payload: CommentInput,
      success: Comment,
      error: [BadRequest, Forbidden, NotFound, Conflict]
    }).annotateMerge(doc("Edit a comment", "Replaces a comment's body; only its author may (403 otherwise)."))
  )
  .add(
    HttpApiEndpoint.delete("deleteComment", "/v1/comments/:id", {
      params: { id: commentId },
      success: HttpApiSchema.NoContent,
      error: [Forbidden, NotFound, Conflict]
    }).annotateMerge(doc("Delete a comment", "Deletes a comment; only its author may (403 otherwise)."))
  )
  .middleware(UserAuth)
  .annotateMerge(
    OpenApi.annotations({ title: "Board", description: "Cards, columns, labels, subtasks and card links." })
  ) {}
