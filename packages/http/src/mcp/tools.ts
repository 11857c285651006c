/**
 * The MCP tools of the board: names, descriptions, input schemas and behaviour hints. The hints
 * are the MCP ones (`readOnlyHint`, `destructiveHint`, `idempotentHint`) set through Effect's
 * tool annotations, and are meant to be honest:
 * - read-only tools change nothing (and are trivially idempotent);
 * - `destructiveHint` is true when a call can overwrite or remove something a person wrote
 *   (update_card replaces fields, remove_label takes a label off, run_command can do either);
 *   moving a card or ticking a subtask loses nothing and is undone by the opposite call;
 * - `idempotentHint` is true when repeating the same call changes nothing more (a link or a
 *   label attachment that exists is answered as it is, a URL already submitted is not stored
 *   twice, a card moved to where it is stays there); creating a card or a subtask, toggling a
 *   subtask and free-form commands are not.
 * Every tool works inside this service only (`openWorldHint: false`): nothing fetches URLs.
 * There is no delete tool, and run_command refuses to delete: an agent archives a card instead
 * (archive_card, undone by restore_card; neither loses anything, and repeating either changes nothing).
 *
 * The fields and hints the tools share are in toolFields.ts; the claim and session tools in
 * agentTools.ts.
 */
import { EVENT_PAGE_MAX, LinkType, limits, linkTypes, PromptVariant, RelevanceFilter } from "@board/core"
import { Schema } from "effect"
import { Tool, Toolkit } from "effect/ai"
import { ClaimCard, ClaimNextCard, Heartbeat, ReleaseCard, Report } from "./agentTools.ts"
import {
  Card,
  Column,
  hints,
  n,
  oneOf,
  PriorityField,
  ProjectHint,
  ProjectId,
  reads,
  WholeNumber
} from "./toolFields.ts"

export const ListWorkspaces = reads(
  Tool.make("list_workspaces", {
    description: "List the workspaces you can work in, with your role in each. Start here to find workspace ids."
  })
)

export const ListProjects = reads(
  Tool.make("list_projects", {
    description:
      "List the projects (boards) of a workspace, with their ids and card ref prefixes (WEB for cards WEB-1, WEB-2, ...).",
    parameters: Schema.Struct({
      workspaceId: Schema.String.annotate({ description: "The workspace id (a UUID); list_workspaces shows them" })
    })
  })
)

export const ShowBoard = reads(
  Tool.make("show_board", {
    description:
      "Show a whole board: its columns in order with their kinds (todo, in_progress, done), every card in each column (ref, title, priority, labels, subtasks done) and the project's labels.",
    parameters: Schema.Struct({ projectId: ProjectId })
  })
)

export const SearchCards = reads(
  Tool.make("search_cards", {
    description:
      "Search cards in every project you can see: every word must be in the title or description (any case). Title matches first, then newest.",
    parameters: Schema.Struct({
      query: Schema.String.annotate({ description: 'Words to look for, e.g. "login bug"' }),
      limit: Schema.optionalKey(
        WholeNumber.annotate({
          description: `How many cards at most, from 1 to ${n(limits.searchMaxLimit)} (default ${n(limits.searchDefaultLimit)})`
        })
      ),
      projectId: Schema.optionalKey(Schema.String.annotate({ description: "Only search this project (a UUID)" }))
    })
  })
)

export const ShowCard = reads(
  Tool.make("show_card", {
    description:
      "Show one card in full: fields, labels, assignees, due date, subtasks (ids for toggle_subtask), links, pull requests and shipped state, latest comments.",
    parameters: Schema.Struct({ card: Card, projectId: ProjectHint })
  })
)

export const CreateCard = hints(
  false,
  false,
  false
)(
  Tool.make("create_card", {
    description:
      'Create a card at the bottom of a column. The column may be given by name ("To Do") or id. Answers the new card with its ref.',
    parameters: Schema.Struct({
      projectId: ProjectId,
      column: Column,
      title: Schema.String.annotate({ description: `The title, 1 to ${n(limits.cardTitle)} characters` }),
      description: Schema.optionalKey(
        Schema.String.annotate({ description: `A longer description, up to ${n(limits.cardDescription)} characters` })
      ),
      priority: Schema.optionalKey(PriorityField)
    })
  })
)

export const UpdateCard = hints(
  false,
  true,
  true
)(
  Tool.make("update_card", {
    description:
      "Change a card's title, description or priority; fields left out stay as they are. An empty description clears it. Replaces the previous values.",
    parameters: Schema.Struct({
      card: Card,
      title: Schema.optionalKey(
        Schema.String.annotate({ description: `The new title, 1 to ${n(limits.cardTitle)} characters` })
      ),
      description: Schema.optionalKey(Schema.String.annotate({ description: 'The new description ("" clears it)' })),
      priority: Schema.optionalKey(PriorityField),
      projectId: ProjectHint
    })
  })
)

export const MoveCard = hints(
  false,
  false,
  true
)(
  Tool.make("move_card", {
    description: "Move a card to a column of its board (name or id), at the bottom or at a position (0 = top).",
    parameters: Schema.Struct({
      card: Card,
      column: Column,
      position: Schema.optionalKey(
        WholeNumber.annotate({
          description: "0-based position in the target column (0 = top); the bottom when left out"
        })
      ),
      projectId: ProjectHint
    })
  })
)

export const ArchiveCard = hints(
  false,
  false,
  true
)(
  Tool.make("archive_card", {
    description:
      "Archive a card (nothing is deleted): off the board, search and queue, its agent session released; restore_card undoes it.",
    parameters: Schema.Struct({ card: Card, projectId: ProjectHint })
  })
)

export const RestoreCard = hints(
  false,
  false,
  true
)(
  Tool.make("restore_card", {
    description: "Put an archived card back, at the bottom of its column.",
    parameters: Schema.Struct({ card: Card, projectId: ProjectHint })
  })
)

const LabelName = Schema.String.annotate({ description: 'The label\'s name, such as "bug" (case-insensitive)' })

export const AddLabel = hints(
  false,
  false,
  true
)(
  Tool.make("add_label", {
    description: "Put a label on a card, creating the label in the project if needed.",
    parameters: Schema.Struct({ card: Card, label: LabelName, projectId: ProjectHint })
  })
)

export const RemoveLabel = hints(
  false,
  true,
  true
)(
  Tool.make("remove_label", {
    description: "Take a label off a card (the label itself stays in the project).",
    parameters: Schema.Struct({
      card: Card,
      label: Schema.String.annotate({ description: "The label's name (case-insensitive) or id" }),
      projectId: ProjectHint
    })
  })
)

export const AddSubtask = hints(
  false,
  false,
  false
)(
  Tool.make("add_subtask", {
    description:
      "Add a subtask (a checklist item, not done) at the end of a card's subtasks. Answers the subtask with its id.",
    parameters: Schema.Struct({
      card: Card,
      title: Schema.String.annotate({ description: `The subtask's title, 1 to ${n(limits.cardTitle)} characters` }),
      projectId: ProjectHint
    })
  })
)

export const ToggleSubtask = hints(
  false,
  false,
  false
)(
  Tool.make("toggle_subtask", {
    description: "Flip a subtask between done and not done. show_card lists subtask ids.",
    parameters: Schema.Struct({ subtaskId: Schema.String.annotate({ description: "The subtask id (a UUID)" }) })
  })
)

export const LinkCards = hints(
  false,
  false,
  true
)(
  Tool.make("link_cards", {
    description:
      "Link two cards of one workspace: relates_to, blocks (card blocks target), duplicates or is_part_of (card is part of target). An identical link is answered as is.",
    parameters: Schema.Struct({
      card: Card,
      target: Schema.String.annotate({ description: "The other card: its id or its ref" }),
      linkType: LinkType.annotate({ description: oneOf(linkTypes) }),
      projectId: ProjectHint
    })
  })
)

export const SubmitLink = hints(
  false,
  false,
  true
)(
  Tool.make("submit_link", {
    description:
      "Save an external link (docs, issue, article) to a project, rated for relevance against the board. The URL is not fetched: give a title and note. A URL already stored is answered as is.",
    parameters: Schema.Struct({
      projectId: ProjectId,
      url: Schema.String.annotate({ description: `An http(s) URL, up to ${n(limits.linkUrl)} characters` }),
      title: Schema.optionalKey(
        Schema.String.annotate({ description: `The page's title, up to ${n(limits.linkTitle)} characters` })
      ),
      note: Schema.optionalKey(
        Schema.String.annotate({ description: `Why it matters, up to ${n(limits.linkNote)} characters` })
      ),
      tags: Schema.optionalKey(
        Schema.Array(Schema.String).annotate({
          description: `Up to ${n(limits.linkTags)} tags of up to ${n(limits.linkTag)} characters`
        })
      )
    })
  })
)

export const ListLinks = reads(
  Tool.make("list_links", {
    description:
      "List a project's stored links, newest first, with their relevance rating (high, medium, low, none, or unrated).",
    parameters: Schema.Struct({
      projectId: ProjectId,
      relevance: Schema.optionalKey(RelevanceFilter.annotate({ description: "Only links with this rating" })),
      limit: Schema.optionalKey(
        WholeNumber.annotate({ description: "How many links at most, from 1 to 500 (default 50)" })
      ),
      offset: Schema.optionalKey(WholeNumber.annotate({ description: "How many to skip, for paging (default 0)" }))
    })
  })
)

export const GetPrompt = reads(
  Tool.make("get_prompt", {
    description:
      "Build an agent prompt from a card and its relevant links. Variants: analysis (plan, no changes), draft (propose for review), execute (do the work; default).",
    parameters: Schema.Struct({
      card: Card,
      variant: Schema.optionalKey(
        PromptVariant.annotate({
          description: "analysis, draft or execute (default)"
        })
      ),
      projectId: ProjectHint
    })
  })
)

export const AddComment = hints(
  false,
  false,
  false
)(
  Tool.make("comment", {
    description:
      "Comment on a card (Markdown); people and agents talk on cards this way, e.g. to answer an agent's question.",
    parameters: Schema.Struct({
      card: Card,
      body: Schema.String.annotate({ description: `The comment, 1 to ${n(limits.commentBody)} characters` }),
      projectId: ProjectHint
    })
  })
)

// Events (issue 18) as two read tools with a cursor, rather than a resource subscription: every
// MCP client calls tools, few subscribe to resources, and an agent polls naturally with `after`.
const After = Schema.optionalKey(
  Schema.String.annotate({
    description: "Only events after this id (a previous answer's `next`)"
  })
)
const EventLimit = Schema.optionalKey(WholeNumber.annotate({ description: `1 to ${EVENT_PAGE_MAX} (default 50)` }))

export const ListEvents = reads(
  Tool.make("list_events", {
    description:
      "A board's changes, oldest first: event id, time, type (card.moved, ...), who, card. Pass `after` for newer ones.",
    parameters: Schema.Struct({
      projectId: ProjectId,
      after: After,
      limit: EventLimit,
      types: Schema.optionalKey(
        Schema.Array(Schema.String).annotate({ description: `Only these types, e.g. ["card.moved"]` })
      )
    })
  })
)

export const CardHistory = reads(
  Tool.make("card_history", {
    description: "One card's changes and who made them, oldest first.",
    parameters: Schema.Struct({ card: Card, projectId: ProjectHint, after: After, limit: EventLimit })
  })
)

export const RunCommand = hints(
  false,
  true,
  false
)(
  Tool.make("run_command", {
    description:
      'Carry out one plain-English board command, e.g. "move WEB-12 to Done", "add label bug to WEB-3", "WEB-4 blocks WEB-7". Deleting is refused here. Prefer the specific tools.',
    parameters: Schema.Struct({
      command: Schema.String.annotate({ description: `The command, up to ${n(limits.nluCommand)} characters` }),
      projectId: Schema.optionalKey(
        Schema.String.annotate({
          description: "The board (a UUID), when the command names no card ref"
        })
      )
    })
  })
)

export const BoardToolkit = Toolkit.make(
  ListWorkspaces,
  ListProjects,
  ShowBoard,
  SearchCards,
  ShowCard,
  CreateCard,
  UpdateCard,
  MoveCard,
  ArchiveCard,
  RestoreCard,
  AddLabel,
  RemoveLabel,
  AddSubtask,
  ToggleSubtask,
  LinkCards,
  SubmitLink,
  ListLinks,
  GetPrompt,
  AddComment,
  ListEvents,
  CardHistory,
  RunCommand,
  ClaimCard,
  ClaimNextCard,
  Heartbeat,
  Report,
  ReleaseCard
)

export type BoardTools = Toolkit.Tools<typeof BoardToolkit>
