/**
 * Natural-language commands (POST /v1/nlu): parse one plain-English command with the offline
 * grammar of `parseCommand`, resolve the names it contains against the boards the principal can
 * see, and carry it out through the board services (which check access on every write).
 *
 * Resolution rules:
 * - The board context is `projectId` when given. Otherwise a card ref names its project (refs are
 *   unique per project, not globally: a ref found in several visible projects is ambiguous), and
 *   a command without a ref (a new card, a card named by title) needs the principal to see
 *   exactly one project.
 * - Cards by title: exact (case-insensitive) title first, else the one title containing the text.
 * - Columns: exact name, case-insensitively. Labels: by name, case-insensitively. Subtasks of the
 *   card: exact title first, else the one title containing the text.
 *
 * Everything the caller can fix is an InvalidInput (400) with a message saying what to change;
 * a NotFound from a service becomes an InvalidInput with its message, since the endpoint answers
 * only 200, 400, 401 and 429. WorkspaceNotGranted (an OAuth grant that does not cover the
 * project's workspace, 403) passes through.
 */
import { Context, Effect, Layer } from "effect"
import { type CardLinkView, CardLinks } from "../board/CardLinks.ts"
import { Cards } from "../board/Cards.ts"
import type { CardView, SubtaskView } from "../board/cardView.ts"
import { Labels } from "../board/Labels.ts"
import { type CardHit, type ColumnHit, type LabelHit, Lookups, type ProjectRef } from "../board/Lookups.ts"
import { Search } from "../board/Search.ts"
import { Subtasks } from "../board/Subtasks.ts"
import type { CardIntent, CommandResult } from "../domain/command.ts"
import { decodeInput } from "../domain/decode.ts"
import type { ProjectId } from "../domain/ids.ts"
import { CardMove, CardPatch, SubtaskCreate } from "../domain/inputs.ts"
import { InvalidInput, type NotFound, type WorkspaceNotGranted } from "../domain/errors.ts"
import { limits } from "../domain/limits.ts"
import type { Principal } from "../domain/Principal.ts"
import { Name, noNul, Title } from "../domain/text.ts"
import { cardLabel, listOf, matchByName, normalizeName, quote } from "../board/names.ts"
import { type CardRefOrTitle, EXAMPLES, type Intent, type LinkType, parseCommand } from "./parseCommand.ts"

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

/** The 200 body of POST /v1/nlu: a union tagged by `intent` (`domain/command.ts`). */
export type { CommandResult }

export interface CommandInput {
  readonly command: string
  /** The board to act on (decoded, as the contract does); inferred from card refs or the only visible project when absent. */
  readonly projectId?: ProjectId | undefined
  /** `false` refuses a delete before anything runs (front ends without a delete, like MCP). */
  readonly allowDelete?: boolean | undefined
}

/** How many cards a search command answers with. */
export const SEARCH_LIMIT = 20

type Failure = InvalidInput | NotFound | WorkspaceNotGranted
/** What a command did: the answer without the command and `understood` (the union, member by member). */
type Outcome = CommandResult extends infer R ? (R extends unknown ? Omit<R, "command" | "understood"> : never) : never

const invalid = (message: string) => new InvalidInput({ message })

export class Commands extends Context.Service<
  Commands,
  {
    readonly run: (
      principal: Principal,
      input: CommandInput
    ) => Effect.Effect<CommandResult, InvalidInput | WorkspaceNotGranted>
  }
>()("board/core/Commands") {
  static readonly layer = Layer.effect(
    Commands,
    Effect.gen(function* () {
      const cards = yield* Cards
      const labels = yield* Labels
      const subtasks = yield* Subtasks
      const cardLinks = yield* CardLinks
      const search = yield* Search
      const lookups = yield* Lookups

      // --- the board context ---------------------------------------------------------------

      /** The project of `projectId`, checked like every other access (NotFound, WorkspaceNotGranted). */
      const givenProject = Effect.fnUntraced(function* (
        principal: Principal,
        projectId: ProjectId
      ): Effect.fn.Return<ProjectRef, Failure> {
        return yield* lookups.project(principal, projectId)
      })

      /** The only project the principal can see; otherwise the caller must say which. */
      const soleProject = Effect.fnUntraced(function* (
        principal: Principal,
        why: string
      ): Effect.fn.Return<ProjectRef, InvalidInput> {
        const projects = yield* lookups.visibleProjects(principal)
        if (projects.length === 1) return projects[0]!
        if (projects.length === 0) return yield* invalid(`${why}, but you have no project; create one first`)
        return yield* invalid(
          `${why}: you can see ${projects.length} projects (${listOf(projects.map((p) => `${quote(p.name)} ${p.id}`))}); ` +
            `pass projectId to say which`
        )
      })

      // --- names to ids ----------------------------------------------------------------------

      const cardByRef = Effect.fnUntraced(function* (
        principal: Principal,
        ref: string,
        fixed: ProjectRef | undefined
      ): Effect.fn.Return<CardHit, Failure> {
        // a command looks only where the credential reaches: a ref beyond it is no card either
        const none = () =>
          invalid(
            fixed !== undefined
              ? `no card ${ref} in project ${quote(fixed.name)}`
              : `no card ${ref} in the projects you can see`
          )
        return yield* lookups
          .cardByRef(principal, ref, { projectId: fixed?.id, remedy: "pass projectId to say which" })
          .pipe(Effect.catchTags({ NotFound: none, WorkspaceNotGranted: none }))
      })

      const cardByTitle = Effect.fnUntraced(function* (
        project: ProjectRef,
        title: string
      ): Effect.fn.Return<CardHit, InvalidInput> {
        const { cards: hits, exact } = yield* lookups.cardsByTitle(project, title)
        if (hits.length === 1) return hits[0]!
        if (hits.length === 0)
          return yield* invalid(`no card matches ${quote(title)} in project ${quote(project.name)}`)
        const shown = hits.slice(0, 5).map(cardLabel)
        const more = hits.length > 5 ? " and more" : ""
        return yield* invalid(
          `ambiguous: ${exact ? "several cards are titled" : "several card titles contain"} ${quote(title)}: ` +
            `${shown.join(", ")}${more}; use the ref`
        )
      })

      /**
       * Resolves the cards a command names, refs first so that a title can be looked up in the
       * project of a ref named alongside it ("\"Fix login\" blocks WEB-5").
       */
      const resolveCards = Effect.fnUntraced(function* (
        principal: Principal,
        names: ReadonlyArray<CardRefOrTitle>,
        fixed: ProjectRef | undefined
      ): Effect.fn.Return<ReadonlyArray<CardHit>, Failure> {
        const found = new Map<number, CardHit>()
        let context = fixed
        for (const [i, name] of names.entries()) {
          if (!("ref" in name)) continue
          const hit = yield* cardByRef(principal, name.ref, fixed)
          found.set(i, hit)
          context ??= hit.project
        }
        for (const [i, name] of names.entries()) {
          if (!("title" in name)) continue
          context ??= yield* soleProject(
            principal,
            `to find the card ${quote(name.title)} by its title I need its project`
          )
          found.set(i, yield* cardByTitle(context, name.title))
        }
        return names.map((_, i) => found.get(i)!)
      })

      const resolveCard = (principal: Principal, name: CardRefOrTitle, fixed: ProjectRef | undefined) =>
        Effect.map(resolveCards(principal, [name], fixed), (hits) => hits[0]!)

      /**
       * The project's label of this name, created when it does not exist yet (so "add label bug
       * to WEB-4" works on a board without a "bug" label); a creation is reported as a
       * `label.created` action.
       */
      const ensureLabel = Effect.fnUntraced(function* (
        principal: Principal,
        project: ProjectRef,
        name: string,
        actions: Array<CommandAction>
      ): Effect.fn.Return<LabelHit, Failure> {
        const { label, created } = yield* labels.ensure(principal, { projectId: project.id, name })
        if (created) actions.push({ type: "label.created", labelId: label.id, name: label.name })
        return label
      })

      // a label's name decoded as the contract decodes one (`LabelEnsure`), named as the command said it
      const decodeLabelName = (name: string) => decodeInput(Name, `label ${quote(name)}`)(name)

      // --- the intents -----------------------------------------------------------------------

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
            return cardResult(
              intent.type,
              intent.labels.length > 0 ? yield* cards.get(principal, card.id) : card,
              actions
            )
          }

          case "move_card": {
            const hit = yield* resolveCard(principal, intent.card, fixed)
            const column = yield* lookups.column(hit.project, intent.column)
            const card = yield* cards.move(
              principal,
              hit.id,
              yield* decodeInput(CardMove)({ columnId: column.id, position: intent.position })
            )
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
            return updated(intent.type, yield* cards.update(principal, hit.id, { priority: intent.priority }), [
              "priority"
            ])
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

      const run = Effect.fn("Commands.run")(
        function* (principal: Principal, input: CommandInput): Effect.fn.Return<CommandResult, Failure> {
          const command = input.command
          if (command.trim() === "") return yield* invalid(`command: must not be blank. Try: ${EXAMPLES.move_card}`)
          if (command.length > limits.nluCommand) {
            return yield* invalid(
              `command: must be at most ${limits.nluCommand} characters (got ${command.length}). Try: ${EXAMPLES.move_card}`
            )
          }
          if (!noNul.passes(command)) return yield* invalid(`command: ${noNul.message}. Try: ${EXAMPLES.move_card}`)
          // the project first: a project outside the caller's grant is a 403 whatever the command says
          const fixed = input.projectId === undefined ? undefined : yield* givenProject(principal, input.projectId)
          const parsed = parseCommand(command)
          if (!parsed.ok) return yield* invalid(parsed.error)
          if (parsed.intent.type === "delete_card" && input.allowDelete === false) {
            return yield* invalid(
              "deleting cards is not available here; a person can delete the card through the REST API or the app"
            )
          }
          const outcome = yield* execute(principal, parsed.intent, fixed)
          // the fields in the order the answer has always had: command, intent, understood, then the outcome's
          return Object.assign({ command, intent: outcome.intent, understood: true as const }, outcome)
        },
        // SPEC lists no 404 for POST /v1/nlu: what a command names but cannot be found is a 400
        Effect.catchTag("NotFound", (e) => Effect.fail(invalid(e.message)))
      )

      return Commands.of({ run })
    })
  )
}
