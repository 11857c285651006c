/**
 * What each intent of a parsed command does, through the board services (which check access on
 * every write), and the answer it gives: the card, link or search it touched and the actions it
 * took (`CommandAction`). The names in it are resolved by commandNames.ts.
 */
import { Effect } from "effect"
import type { CardLinkView, CardLinks } from "../board/CardLinks.ts"
import type { CardArchive } from "../board/CardArchive.ts"
import type { Cards } from "../board/Cards.ts"
import type { CardView, SubtaskView } from "../board/cardView.ts"
import type { Labels } from "../board/Labels.ts"
import type { ColumnHit, Lookups, ProjectRef } from "../board/Lookups.ts"
import { cardLabel, listOf, matchByName, normalizeName, quote } from "../board/names.ts"
import type { Search } from "../board/Search.ts"
import type { Subtasks } from "../board/Subtasks.ts"
import type { CardIntent, CommandResult } from "../domain/command.ts"
import { decodeInput } from "../domain/decode.ts"
import { InvalidInput } from "../domain/errors.ts"
import { CardMove, CardPatch, SubtaskCreate } from "../domain/inputs.ts"
import { limits } from "../domain/limits.ts"
import type { Principal } from "../domain/Principal.ts"
import { Title } from "../domain/text.ts"
import { type CommandNames, type Failure, invalid } from "./commandNames.ts"
import type { Intent, LinkType } from "./parseCommand.ts"

/** One thing a command did, with the ids it touched. Read-only commands do nothing. */
export type CommandAction =
  | {
      readonly type: "card.created"
      readonly cardId: string
      readonly ref: string
      readonly columnId: string
      readonly position: number
    }
  | {
      readonly type: "card.moved"
      readonly cardId: string
      readonly ref: string
      readonly columnId: string
      readonly position: number
    }
  | {
      readonly type: "card.updated"
      readonly cardId: string
      readonly ref: string
      readonly fields: ReadonlyArray<"title" | "priority" | "description">
    }
  | { readonly type: "card.deleted"; readonly cardId: string; readonly ref: string }
  | { readonly type: "card.archived" | "card.restored"; readonly cardId: string; readonly ref: string }
  | { readonly type: "label.created"; readonly labelId: string; readonly name: string }
  | { readonly type: "label.attached"; readonly cardId: string; readonly labelId: string }
  | { readonly type: "label.detached"; readonly cardId: string; readonly labelId: string }
  | { readonly type: "subtask.created"; readonly subtaskId: string; readonly cardId: string }
  | { readonly type: "subtask.completed" | "subtask.reopened"; readonly subtaskId: string; readonly cardId: string }
  | {
      readonly type: "link.created"
      readonly linkId: string
      readonly sourceId: string
      readonly targetId: string
      readonly linkType: LinkType
    }

/** How many cards a search command answers with. */
export const SEARCH_LIMIT = 20

/** What a command did: the answer without the command and `understood` (the union, member by member). */
type Outcome = CommandResult extends infer R ? (R extends unknown ? Omit<R, "command" | "understood"> : never) : never

/** Carries out one intent, on the layer's services. */
export const commandIntents = (
  services: {
    readonly cards: Cards["Service"]
    readonly archive: CardArchive["Service"]
    readonly labels: Labels["Service"]
    readonly subtasks: Subtasks["Service"]
    readonly cardLinks: CardLinks["Service"]
    readonly search: Search["Service"]
    readonly lookups: Lookups["Service"]
  },
  names: CommandNames
) => {
  const { cards, archive, labels, subtasks, cardLinks, search, lookups } = services
  const { soleProject, resolveCard, resolveCards, ensureLabel, decodeLabelName } = names

  const cardResult = (intent: CardIntent, card: CardView, actions: ReadonlyArray<CommandAction>): Outcome => ({
    intent,
    projectId: card.projectId,
    actions,
    result: card
  })

  const updated = (
    intent: CardIntent,
    card: CardView,
    fields: ReadonlyArray<"title" | "priority" | "description">
  ): Outcome => cardResult(intent, card, [{ type: "card.updated", cardId: card.id, ref: card.ref, fields }])

  const pickSubtask = (card: CardView, wanted: string, completed: boolean): SubtaskView | InvalidInput => {
    const match = matchByName(card.subtasks, wanted, (s) => s.title)
    if (match.kind === "one") return match.item
    if (match.kind === "many" && match.exact) {
      // identical titles cannot be told apart by name: take the first one the command changes
      return match.items.find((s) => s.completed !== completed) ?? match.items[0]!
    }
    if (match.kind === "many") {
      return invalid(
        `ambiguous: several subtasks of ${card.ref} contain ${quote(wanted)}: ` +
          `${listOf(
            match.items.map((s) => quote(s.title)),
            5
          )}; give the whole title`
      )
    }
    return invalid(
      card.subtasks.length === 0
        ? `card ${card.ref} has no subtasks`
        : `card ${card.ref} has no subtask matching ${quote(wanted)}; its subtasks are ${listOf(
            card.subtasks.map((s) => quote(s.title)),
            20
          )}`
    )
  }

  const execute = Effect.fnUntraced(function* (
    principal: Principal,
    intent: Intent,
    fixed: ProjectRef | undefined
  ): Effect.fn.Return<Outcome, Failure> {
    switch (intent.type) {
      case "create_card": {
        yield* decodeInput(Title, "title")(intent.title)
        yield* Effect.forEach(intent.labels, decodeLabelName, { discard: true })
        const project = fixed ?? (yield* soleProject(principal, "to create a card I need its project"))
        let column: ColumnHit | undefined
        if (intent.column !== undefined) column = yield* lookups.column(project, intent.column)
        else {
          // no column named: the board's first column
          column = (yield* lookups.columns(project.id))[0]
          if (column === undefined)
            return yield* invalid(`project ${quote(project.name)} has no columns; create one first`)
        }
        const actions: Array<CommandAction> = []
        const card = yield* cards.create(principal, {
          projectId: project.id,
          columnId: column.id,
          title: intent.title,
          priority: intent.priority
        })
        actions.push({
          type: "card.created",
          cardId: card.id,
          ref: card.ref,
          columnId: card.columnId,
          position: card.position
        })
        for (const name of intent.labels) {
          const label = yield* ensureLabel(principal, project, name, actions)
          yield* labels.attach(principal, card.id, label.id)
          actions.push({ type: "label.attached", cardId: card.id, labelId: label.id })
        }
        return cardResult(intent.type, intent.labels.length > 0 ? yield* cards.get(principal, card.id) : card, actions)
      }

      case "move_card": {
        const hit = yield* resolveCard(principal, intent.card, fixed)
        const column = yield* lookups.column(hit.project, intent.column)
        const card = yield* cards
          .move(principal, hit.id, yield* decodeInput(CardMove)({ columnId: column.id, position: intent.position }))
          .pipe(Effect.catchTag("Conflict", (e) => Effect.fail(invalid(e.message))))
        return cardResult(intent.type, card, [
          { type: "card.moved", cardId: card.id, ref: card.ref, columnId: card.columnId, position: card.position }
        ])
      }

      case "rename_card": {
        const hit = yield* resolveCard(principal, intent.card, fixed)
        const patch = yield* decodeInput(CardPatch)({ title: intent.title })
        return updated(intent.type, yield* cards.update(principal, hit.id, patch), ["title"])
      }

      case "set_priority": {
        const hit = yield* resolveCard(principal, intent.card, fixed)
        return updated(intent.type, yield* cards.update(principal, hit.id, { priority: intent.priority }), ["priority"])
      }

      case "set_description": {
        const hit = yield* resolveCard(principal, intent.card, fixed)
        // an empty description ("clear the description of WEB-4") clears it
        const description = intent.description.trim() === "" ? null : intent.description
        const patch = yield* decodeInput(CardPatch)({ description })
        return updated(intent.type, yield* cards.update(principal, hit.id, patch), ["description"])
      }

      case "add_label": {
        yield* decodeLabelName(intent.label)
        const hit = yield* resolveCard(principal, intent.card, fixed)
        const before = yield* cards.get(principal, hit.id)
        // already on the card: nothing to do
        if (before.labels.some((l) => normalizeName(l.name) === normalizeName(intent.label)))
          return cardResult(intent.type, before, [])
        const actions: Array<CommandAction> = []
        const label = yield* ensureLabel(principal, hit.project, intent.label, actions)
        yield* labels.attach(principal, hit.id, label.id)
        actions.push({ type: "label.attached", cardId: hit.id, labelId: label.id })
        return cardResult(intent.type, yield* cards.get(principal, hit.id), actions)
      }

      case "remove_label": {
        const hit = yield* resolveCard(principal, intent.card, fixed)
        const before = yield* cards.get(principal, hit.id)
        const label = before.labels.find((l) => normalizeName(l.name) === normalizeName(intent.label))
        if (label === undefined) {
          return yield* invalid(
            `card ${before.ref} has no label ${quote(intent.label)}` +
              (before.labels.length === 0
                ? "; it has no labels"
                : `; its labels are ${listOf(
                    before.labels.map((l) => quote(l.name)),
                    50
                  )}`)
          )
        }
        yield* labels.detach(principal, hit.id, label.id)
        return cardResult(intent.type, yield* cards.get(principal, hit.id), [
          { type: "label.detached", cardId: hit.id, labelId: label.id }
        ])
      }

      case "add_subtask": {
        const hit = yield* resolveCard(principal, intent.card, fixed)
        const subtask = yield* subtasks.create(
          principal,
          yield* decodeInput(SubtaskCreate)({ cardId: hit.id, title: intent.title })
        )
        return cardResult(intent.type, yield* cards.get(principal, hit.id), [
          { type: "subtask.created", subtaskId: subtask.id, cardId: hit.id }
        ])
      }

      case "complete_subtask":
      case "reopen_subtask": {
        const completed = intent.type === "complete_subtask"
        const hit = yield* resolveCard(principal, intent.card, fixed)
        const before = yield* cards.get(principal, hit.id)
        const subtask = pickSubtask(before, intent.subtask, completed)
        if (subtask instanceof InvalidInput) return yield* subtask
        yield* subtasks.setCompleted(principal, subtask.id, completed)
        return cardResult(intent.type, yield* cards.get(principal, hit.id), [
          { type: completed ? "subtask.completed" : "subtask.reopened", subtaskId: subtask.id, cardId: hit.id }
        ])
      }

      case "link_cards": {
        const [source, target] = yield* resolveCards(principal, [intent.card, intent.target], fixed)
        if (source!.id === target!.id) {
          return yield* invalid(`a card cannot be linked to itself (both names mean ${cardLabel(source!)})`)
        }
        const sameLink = (l: CardLinkView) =>
          l.sourceId === source!.id && l.targetId === target!.id && l.linkType === intent.linkType
        const existing = (yield* cardLinks.list(principal, source!.id)).find(sameLink)
        // linking twice answers the existing link and does nothing
        if (existing !== undefined)
          return { intent: intent.type, projectId: source!.project.id, actions: [], result: existing }
        const link = yield* cardLinks.create(principal, source!.id, {
          targetId: target!.id,
          linkType: intent.linkType
        })
        return {
          intent: intent.type,
          projectId: source!.project.id,
          actions: [
            {
              type: "link.created",
              linkId: link.id,
              sourceId: link.sourceId,
              targetId: link.targetId,
              linkType: link.linkType
            }
          ],
          result: link
        }
      }

      case "archive_card":
      case "restore_card": {
        const hit = yield* resolveCard(principal, intent.card, fixed)
        const archived = intent.type === "archive_card"
        const card = yield* (archived ? archive.archive : archive.restore)(principal, hit.id)
        return cardResult(intent.type, card, [
          { type: archived ? "card.archived" : "card.restored", cardId: card.id, ref: card.ref }
        ])
      }

      case "delete_card": {
        const hit = yield* resolveCard(principal, intent.card, fixed)
        yield* cards.remove(principal, hit.id)
        return {
          intent: intent.type,
          projectId: hit.project.id,
          actions: [{ type: "card.deleted", cardId: hit.id, ref: hit.ref }],
          result: { deleted: { id: hit.id, ref: hit.ref } }
        }
      }

      case "search": {
        if (intent.query.length > limits.searchQuery) {
          return yield* invalid(
            `the search text is ${intent.query.length} characters long; the limit is ${limits.searchQuery}`
          )
        }
        if (fixed === undefined) {
          const found = yield* search.cards(principal, { q: intent.query, limit: SEARCH_LIMIT })
          return { intent: intent.type, projectId: null, actions: [], result: { cards: found } }
        }
        const found = yield* search.cards(principal, { q: intent.query, limit: SEARCH_LIMIT, projectId: fixed.id })
        return { intent: intent.type, projectId: fixed.id, actions: [], result: { cards: found } }
      }

      case "show_card": {
        const hit = yield* resolveCard(principal, intent.card, fixed)
        return cardResult(intent.type, yield* cards.get(principal, hit.id), [])
      }
    }
  })

  return execute
}
