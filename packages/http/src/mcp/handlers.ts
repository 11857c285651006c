/**
 * What each MCP tool does, as the principal of the request: names become ids through the core's
 * resolver (`Lookups`), and every read or write is a call to a core service, which checks access.
 * A handler answers compact text for the model plus the structured object; it fails only with
 * domain errors, which the registration turns into tool errors carrying their message.
 */
import {
  CardCreate,
  CardMove,
  CardPatch,
  Boards,
  CardArchive,
  CardLinks,
  Cards,
  Commands,
  CommentInput,
  Comments,
  type DomainError,
  Forge,
  History,
  checkedId,
  decodeInput,
  InvalidInput,
  LabelEnsure,
  LabelId,
  Labels,
  Lookups,
  NotFound,
  ProjectLinks,
  ProjectLinkSubmit,
  Prompts,
  quote,
  Search,
  SearchInput,
  SubtaskCreate,
  SubtaskId,
  Subtasks,
  Workspaces
} from "@board/core"
import { Effect, Schema } from "effect"
import type { Tool } from "effect/ai"
import {
  boardText,
  cardsText,
  cardText,
  columnName,
  commandText,
  eventsText,
  linkLine,
  linkPageText,
  projectsText,
  subtaskLine,
  submittedText,
  workspacesText
} from "./format.ts"
import { McpPrincipal } from "./McpAuth.ts"
import type { BoardTools } from "./tools.ts"
import { makeAgentHandlers } from "./agentHandlers.ts"
import { toolHelpers } from "./toolHelpers.ts"

/** A tool's answer: the text a model reads and the structured content (a JSON object). */
export interface Reply {
  readonly text: string
  readonly data: { readonly [key: string]: unknown }
}

export type ToolHandlers = {
  readonly [K in keyof BoardTools]: (
    params: Tool.Parameters<BoardTools[K]>
  ) => Effect.Effect<Reply, DomainError, McpPrincipal>
}

const isLabelId = Schema.is(checkedId(LabelId))
const SubtaskIdInput = checkedId(SubtaskId)

/** Comments show_card quotes, the latest. */
const SHOWN_COMMENTS = 5

export const makeHandlers = Effect.gen(function* () {
  const workspaces = yield* Workspaces
  const boards = yield* Boards
  const search = yield* Search
  const cards = yield* Cards
  const archive = yield* CardArchive
  const labels = yield* Labels
  const subtasks = yield* Subtasks
  const cardLinks = yield* CardLinks
  const projectLinks = yield* ProjectLinks
  const prompts = yield* Prompts
  const commands = yield* Commands
  const lookups = yield* Lookups
  const comments = yield* Comments
  const history = yield* History
  const forge = yield* Forge

  const { cardId, projectOf, resolveColumn, cardReply } = yield* toolHelpers
  const agent = yield* makeAgentHandlers

  const handlers: ToolHandlers = {
    list_workspaces: () =>
      Effect.gen(function* () {
        const list = yield* workspaces.list(yield* McpPrincipal)
        return { text: workspacesText(list), data: { workspaces: list } }
      }),

    list_projects: ({ workspaceId }) =>
      Effect.gen(function* () {
        const list = yield* workspaces.projects(yield* McpPrincipal, workspaceId.trim())
        return { text: projectsText(list), data: { projects: list } }
      }),

    show_board: ({ projectId }) =>
      Effect.gen(function* () {
        const board = yield* boards.get(yield* McpPrincipal, yield* projectOf(projectId))
        return { text: boardText(board), data: board as unknown as Reply["data"] }
      }),

    search_cards: ({ limit, projectId, query }) =>
      Effect.gen(function* () {
        const found = yield* search.cards(
          yield* McpPrincipal,
          yield* decodeInput(SearchInput)({
            q: query,
            limit,
            projectId: projectId === undefined ? undefined : yield* projectOf(projectId)
          })
        )
        return { text: cardsText(found, quote(query)), data: { cards: found } }
      }),

    show_card: ({ card, projectId }) =>
      Effect.gen(function* () {
        const principal = yield* McpPrincipal
        const id = yield* cardId(card, projectId)
        const view = yield* cards.get(principal, id)
        const links = yield* cardLinks.list(principal, id)
        const columns = yield* lookups.columns(view.projectId)
        const column = columnName(columns, view.columnId)
        // the latest few: a model reads the card, not the whole conversation (the REST page has it all)
        const latest = yield* comments.latest(id, SHOWN_COMMENTS)
        const pullRequests = yield* forge.pullRequests(principal, id)
        return {
          text: cardText(view, column, links, latest, pullRequests),
          data: {
            card: view,
            column: column ?? null,
            links,
            comments: latest.comments,
            commentCount: latest.total,
            pullRequests
          }
        }
      }),

    create_card: ({ column, description, priority, projectId, title }) =>
      Effect.gen(function* () {
        const principal = yield* McpPrincipal
        const project = yield* projectOf(projectId)
        const columnId = yield* resolveColumn(project, column)
        const card = yield* cards.create(
          principal,
          yield* decodeInput(CardCreate)({ projectId: project, columnId, title, description, priority })
        )
        return yield* cardReply(card, `Created ${card.ref}.`)
      }),

    update_card: ({ card, description, priority, projectId, title }) =>
      Effect.gen(function* () {
        const principal = yield* McpPrincipal
        if (title === undefined && description === undefined && priority === undefined) {
          return yield* new InvalidInput({ message: "give at least one of title, description or priority to change" })
        }
        const id = yield* cardId(card, projectId)
        const updated = yield* cards.update(
          principal,
          id,
          yield* decodeInput(CardPatch)({
            title,
            priority,
            description: description === undefined ? undefined : description.trim() === "" ? null : description
          })
        )
        return yield* cardReply(updated, `Updated ${updated.ref}.`)
      }),

    move_card: ({ card, column, position, projectId }) =>
      Effect.gen(function* () {
        const principal = yield* McpPrincipal
        const id = yield* cardId(card, projectId)
        const project = yield* lookups.projectOfCard(principal, id)
        const columnId = yield* resolveColumn(project, column)
        const moved = yield* cards.move(principal, id, yield* decodeInput(CardMove)({ columnId, position }))
        return yield* cardReply(moved, `Moved ${moved.ref} to position ${moved.position}.`)
      }),

    archive_card: ({ card, projectId }) =>
      Effect.gen(function* () {
        const principal = yield* McpPrincipal
        const archived = yield* archive.archive(principal, yield* cardId(card, projectId))
        return yield* cardReply(archived, `Archived ${archived.ref}; restore_card brings it back.`)
      }),

    restore_card: ({ card, projectId }) =>
      Effect.gen(function* () {
        const principal = yield* McpPrincipal
        const restored = yield* archive.restore(principal, yield* cardId(card, projectId))
        return yield* cardReply(restored, `Restored ${restored.ref} at position ${restored.position}.`)
      }),

    add_label: ({ card, label, projectId }) =>
      Effect.gen(function* () {
        const principal = yield* McpPrincipal
        const id = yield* cardId(card, projectId)
        const project = yield* lookups.projectOfCard(principal, id)
        const { label: ensured, created } = yield* labels.ensure(
          principal,
          yield* decodeInput(LabelEnsure)({ projectId: project, name: label })
        )
        const found = { ...ensured, created }
        yield* labels.attach(principal, id, found.id)
        const view = yield* cards.get(principal, id)
        const reply = yield* cardReply(
          view,
          `Label ${quote(found.name)}${found.created ? " (new in this project)" : ""} is on ${view.ref}.`
        )
        return {
          text: reply.text,
          data: { ...reply.data, label: { id: found.id, name: found.name, created: found.created } }
        }
      }),

    remove_label: ({ card, label, projectId }) =>
      Effect.gen(function* () {
        const principal = yield* McpPrincipal
        const id = yield* cardId(card, projectId)
        const project = yield* lookups.projectOfCard(principal, id)
        const wanted = label.trim()
        const labelId = isLabelId(wanted) ? wanted : (yield* lookups.labelByName(project, wanted))?.id
        if (labelId === undefined) {
          return yield* new NotFound({ message: `no label ${quote(wanted)} in this card's project` })
        }
        yield* labels.detach(principal, id, labelId)
        const view = yield* cards.get(principal, id)
        return yield* cardReply(view, `Removed label ${quote(wanted)} from ${view.ref}.`)
      }),

    add_subtask: ({ card, projectId, title }) =>
      Effect.gen(function* () {
        const principal = yield* McpPrincipal
        const id = yield* cardId(card, projectId)
        const subtask = yield* subtasks.create(principal, yield* decodeInput(SubtaskCreate)({ cardId: id, title }))
        const view = yield* cards.get(principal, id)
        return { text: `Added to ${view.ref}: ${subtaskLine(subtask)}`, data: { subtask, card: view } }
      }),

    toggle_subtask: ({ subtaskId }) =>
      Effect.gen(function* () {
        const principal = yield* McpPrincipal
        const subtask = yield* subtasks.toggle(
          principal,
          yield* decodeInput(SubtaskIdInput, "subtaskId")(subtaskId.trim())
        )
        const view = yield* cards.get(principal, subtask.cardId)
        return {
          text: `${subtask.completed ? "Done" : "Not done"} on ${view.ref}: ${subtaskLine(subtask)}`,
          data: { subtask, card: view }
        }
      }),

    link_cards: ({ card, linkType, projectId, target }) =>
      Effect.gen(function* () {
        const principal = yield* McpPrincipal
        const source = yield* cardId(card, projectId)
        const sourceProject = yield* lookups.projectOfCard(principal, source)
        // a target ref in several projects resolves to the one in the source card's project
        const targetId = yield* cardId(target, projectId, "target", sourceProject)
        const link = yield* cardLinks.create(principal, source, { targetId, linkType })
        const view = yield* cards.get(principal, source)
        return {
          text: `Linked: ${view.ref} ${linkLine(link).replace(/^this card /, "")} (link id ${link.id})`,
          data: { link }
        }
      }),

    submit_link: ({ note, projectId, tags, title, url }) =>
      Effect.gen(function* () {
        const result = yield* projectLinks.submit(
          yield* McpPrincipal,
          yield* projectOf(projectId),
          yield* decodeInput(ProjectLinkSubmit)({ url, title, note, tags })
        )
        return { text: submittedText(result.created, result.link), data: result }
      }),

    list_links: ({ limit, offset, projectId, relevance }) =>
      Effect.gen(function* () {
        const page = yield* projectLinks.list(yield* McpPrincipal, yield* projectOf(projectId), {
          relevance,
          limit,
          offset
        })
        return { text: linkPageText(page), data: page as unknown as Reply["data"] }
      }),

    get_prompt: ({ card, projectId, variant }) =>
      Effect.gen(function* () {
        const principal = yield* McpPrincipal
        const id = yield* cardId(card, projectId)
        const result = yield* prompts.forCard(principal, id, variant ?? "execute")
        return { text: result.prompt, data: { ...result, cardId: id } }
      }),

    comment: ({ body, card, projectId }) =>
      Effect.gen(function* () {
        const principal = yield* McpPrincipal
        const id = yield* cardId(card, projectId)
        const made = yield* comments.create(principal, id, yield* decodeInput(CommentInput)({ body }))
        const view = yield* cards.get(principal, id)
        return { text: `Commented on ${view.ref} (comment id ${made.id}).`, data: { comment: made } }
      }),

    list_events: ({ after, limit, projectId, types }) =>
      Effect.gen(function* () {
        const project = yield* projectOf(projectId)
        const page = yield* history.project(yield* McpPrincipal, project, { after, limit: limit ?? 50, types })
        return { text: eventsText(page, "on this board"), data: page as unknown as Reply["data"] }
      }),

    card_history: ({ after, card, limit, projectId }) =>
      Effect.gen(function* () {
        const principal = yield* McpPrincipal
        const id = yield* cardId(card, projectId)
        const page = yield* history.card(principal, id, { after, limit: limit ?? 50 })
        return { text: eventsText(page, "of this card"), data: page as unknown as Reply["data"] }
      }),

    ...agent,

    run_command: ({ command, projectId }) =>
      Effect.gen(function* () {
        const principal = yield* McpPrincipal
        // the MCP endpoint has no delete tool, so a command may not delete either
        const project = projectId === undefined ? undefined : yield* projectOf(projectId)
        const result = yield* commands.run(principal, { command, projectId: project, allowDelete: false })
        return { text: commandText(result), data: result as unknown as Reply["data"] }
      })
  }
  return handlers
})
