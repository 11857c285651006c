/**
 * The answer to a natural-language command (POST /v1/nlu), as a union tagged by `intent`: what
 * `result` holds follows from the intent, so clients narrow on it rather than guess. The tag is
 * the field the answer always had; the union adds nothing to the JSON.
 */
import { Schema } from "effect"
import { Card } from "./card.ts"
import { CardLink } from "./cardLink.ts"
// the command's own ids are not branded: the core names them from its lookups, not from resources
import { Id } from "./ids.ts"

/** The intents whose result is the card afterwards. */
export const cardIntents = [
  "create_card",
  "move_card",
  "rename_card",
  "set_priority",
  "set_description",
  "add_label",
  "remove_label",
  "add_subtask",
  "complete_subtask",
  "reopen_subtask",
  "show_card",
  "archive_card",
  "restore_card"
] as const
export type CardIntent = (typeof cardIntents)[number]

const answer = <I extends Schema.Top, R extends Schema.Top>(intent: I, result: R) =>
  Schema.Struct({
    /** The command as given. */
    command: Schema.String,
    /** The intent it was understood as. */
    intent,
    understood: Schema.Literal(true),
    /** The project the command acted on; null for a search across every visible project. */
    projectId: Schema.NullOr(Id),
    /** What the command did, with the ids it touched; read-only commands do nothing. */
    actions: Schema.Array(Schema.Record(Schema.String, Schema.Unknown)),
    result
  })

/** A deleted card, named by what it was. */
export const DeletedCard = Schema.Struct({ deleted: Schema.Struct({ id: Id, ref: Schema.String }) })

export const CommandResult = Schema.Union([
  answer(Schema.Literals(cardIntents), Card),
  answer(Schema.Literal("link_cards"), CardLink),
  answer(Schema.Literal("delete_card"), DeletedCard),
  answer(Schema.Literal("search"), Schema.Struct({ cards: Schema.Array(Card) }))
]).annotate({
  identifier: "CommandResult",
  description: "What a plain-English command was understood as and did; `result` follows from `intent`."
})
export type CommandResult = typeof CommandResult.Type

/** Every intent a command can be understood as. */
export type CommandIntent = CommandResult["intent"]
