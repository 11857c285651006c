import { setDescription, labels, setPriority } from "./attributeRules.ts"
import { deleteCard, markDone, moveCard, renameCard, search, showCard } from "./cardRules.ts"
import { archiveCard, restoreCard } from "./archiveRules.ts"
import { createCard } from "./createCard.ts"
import { EXAMPLES, notUnderstood } from "./errors.ts"
import { linkSentence, linkVerb, markOrMakeLink } from "./linkRules.ts"
import { prepare } from "./prepare.ts"
import type { Rule } from "./prepare.ts"
import { addSubtask, toggleSubtask } from "./subtaskRules.ts"
import type { ParseResult } from "./types.ts"
import { restore } from "./values.ts"

export type { CardRefOrTitle, Intent, IntentType, LinkType, ParseResult, Priority } from "./types.ts"
export { EXAMPLES } from "./errors.ts"
export { MAX_COMMAND_LENGTH } from "./prepare.ts"

// First match wins, so the order settles overlaps: rules whose trailing text is
// free-form (descriptions, new titles) go first so that words inside that text
// cannot trigger another rule, and the verb-less link sentence goes last.
const RULES: ReadonlyArray<Rule> = [
  setDescription,
  renameCard,
  addSubtask,
  labels,
  markOrMakeLink,
  linkVerb,
  setPriority,
  toggleSubtask,
  createCard,
  moveCard,
  markDone,
  archiveCard,
  restoreCard,
  deleteCard,
  search,
  showCard,
  linkSentence
]

/**
 * Interprets one plain-English board command. Deterministic and offline: a
 * fixed grammar, no model. Card, column and label names come back as typed;
 * resolving them against the board is the executor's job.
 */
export const parseCommand = (command: string): ParseResult => {
  const prepared = prepare(command)
  if ("error" in prepared) return { ok: false, error: `${prepared.error} Try: ${EXAMPLES.move_card}` }
  if (prepared.text === "") return { ok: false, error: `The command is empty. Try: ${EXAMPLES.move_card}` }
  for (const rule of RULES) {
    const result = rule(prepared)
    if (result !== undefined) return result
  }
  return notUnderstood(restore(prepared, prepared.text))
}
