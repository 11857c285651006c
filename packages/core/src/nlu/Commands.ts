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
 *
 * This file is the service and the command's own checks; the names are resolved in
 * commandNames.ts and the intents carried out in intents.ts.
 */
import { Context, Effect, Layer } from "effect"
import { CardLinks } from "../board/CardLinks.ts"
import { Cards } from "../board/Cards.ts"
import { CardArchive } from "../board/CardArchive.ts"
import { Labels } from "../board/Labels.ts"
import { Lookups } from "../board/Lookups.ts"
import { Search } from "../board/Search.ts"
import { Subtasks } from "../board/Subtasks.ts"
import type { CommandResult } from "../domain/command.ts"
import type { Conflict, Forbidden, InvalidInput, WorkspaceNotGranted } from "../domain/errors.ts"
import type { ProjectId } from "../domain/ids.ts"
import { limits } from "../domain/limits.ts"
import type { Principal } from "../domain/Principal.ts"
import { noNul } from "../domain/text.ts"
import { commandNames, type Failure, invalid } from "./commandNames.ts"
import { commandIntents } from "./intents.ts"
import { EXAMPLES, parseCommand } from "./parseCommand.ts"

export { type CommandAction, SEARCH_LIMIT } from "./intents.ts"

/** The 200 body of POST /v1/nlu: a union tagged by `intent` (`domain/command.ts`). */
export type { CommandResult }

export interface CommandInput {
  readonly command: string
  /** The board to act on (decoded, as the contract does); inferred from card refs or the only visible project when absent. */
  readonly projectId?: ProjectId | undefined
  /** `false` refuses a delete before anything runs (front ends without a delete, like MCP). */
  readonly allowDelete?: boolean | undefined
}

export class Commands extends Context.Service<
  Commands,
  {
    readonly run: (
      principal: Principal,
      input: CommandInput
    ) => Effect.Effect<CommandResult, InvalidInput | WorkspaceNotGranted | Forbidden | Conflict>
  }
>()("board/core/Commands") {
  static readonly layer = Layer.effect(
    Commands,
    Effect.gen(function* () {
      const cards = yield* Cards
      const archive = yield* CardArchive
      const labels = yield* Labels
      const subtasks = yield* Subtasks
      const cardLinks = yield* CardLinks
      const search = yield* Search
      const lookups = yield* Lookups

      const names = commandNames(lookups, labels)
      const execute = commandIntents({ cards, archive, labels, subtasks, cardLinks, search, lookups }, names)
      const { givenProject } = names

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
