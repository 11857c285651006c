import { fail } from "./errors.ts"
import type { Prepared, Rule } from "./prepare.ts"
import type { ParseResult } from "./types.ts"
import { isStrongCard, name, parseCard, splitAt } from "./values.ts"

const NOUN = "sub-?tasks?|checklist\\s+items?|check\\s*items?|to-?dos?(?:\\s+items?)?|steps?"
const CARD_MARKERS = "on|in|of|for|from|under"
const CALLED = "(?:(?:called|named|titled)\\s+)?"

const ADD = new RegExp(
  `^(?:add|create|new|append)\\s+(?:a\\s+|an\\s+|the\\s+|one\\s+|another\\s+)?(?:new\\s+)?(?:${NOUN})\\b\\s*:?\\s*${CALLED}([\\s\\S]*)$`,
  "i"
)
const ADD_CARD_FIRST = /^(?:to|on|for|in)\s+(.+?)\s*:\s*([\s\S]+)$/i

export const addSubtask: Rule = (p) => {
  const m = ADD.exec(p.text)
  if (m === null) return undefined
  const cardFirst = ADD_CARD_FIRST.exec(m[1])
  const split =
    cardFirst !== null
      ? { left: cardFirst[2], right: cardFirst[1] }
      : splitAt(m[1], "to|on|for|in", { prefer: "last", card: "right" })
  if (split === undefined) return fail("add_subtask", "To add a subtask, name the subtask and the card.")
  const card = parseCard(p, split.right)
  const title = name(p, split.left)
  if (card === undefined || title === "") return fail("add_subtask", "To add a subtask, name the subtask and the card.")
  return { ok: true, intent: { type: "add_subtask", card, title } }
}

type Toggle = "complete_subtask" | "reopen_subtask"

const toggleIntent = (p: Prepared, type: Toggle, subtaskText: string, cardText: string): ParseResult => {
  const card = parseCard(p, cardText)
  const subtask = name(p, subtaskText.replace(new RegExp(`^(?:the\\s+)?(?:${NOUN})\\s+`, "i"), ""))
  if (card === undefined || subtask === "") return fail(type, "Name the subtask and the card it is on.")
  return { ok: true, intent: { type, card, subtask } }
}

/** "write tests on WEB-4" */
const subtaskOnCard = (p: Prepared, type: Toggle, body: string): ParseResult => {
  const split = splitAt(body, CARD_MARKERS, { prefer: "last", card: "right" })
  if (split !== undefined) return toggleIntent(p, type, split.left, split.right)
  const why = isStrongCard(body)
    ? "Name the subtask as well as the card."
    : "Name the subtask, then the card it is on (by ref or quoted title)."
  return fail(type, why)
}

const COMPLETE = new RegExp(
  `^(?:complete|finish|close|resolve|check\\s+off|check|tick\\s+off|tick|cross\\s+off)\\s+(?:the\\s+)?(?:(?:${NOUN})\\s*:?\\s+${CALLED})?([\\s\\S]+)$`,
  "i"
)
const REOPEN = new RegExp(
  `^(?:reopen|re-open|uncheck|untick|uncomplete|unmark|undo|unfinish)\\s+(?:the\\s+)?(?:(?:${NOUN})\\s*:?\\s+${CALLED})?([\\s\\S]+)$`,
  "i"
)

const DONE = "done|complete|completed|finished|checked|ticked"
const NOT_DONE =
  "not\\s+done|undone|incomplete|not\\s+complete|not\\s+completed|open|unchecked|unticked|to\\s*do|pending"
const MARK_STATE_FIRST = new RegExp(
  `^mark\\s+(?:the\\s+)?(?:(?:${NOUN})\\s+)?([\\s\\S]+?)\\s+(?:as\\s+)?(${NOT_DONE}|${DONE})\\s+(?:${CARD_MARKERS})\\s+([\\s\\S]+)$`,
  "i"
)
const MARK_STATE_LAST = new RegExp(
  `^mark\\s+(?:the\\s+)?(?:(?:${NOUN})\\s+)?([\\s\\S]+?)\\s+(?:as\\s+)?(${NOT_DONE}|${DONE})$`,
  "i"
)

const stateOf = (word: string): Toggle =>
  new RegExp(`^(?:${DONE})$`, "i").test(word) ? "complete_subtask" : "reopen_subtask"

export const toggleSubtask: Rule = (p) => {
  const complete = COMPLETE.exec(p.text)
  if (complete !== null) return subtaskOnCard(p, "complete_subtask", complete[1])
  const reopen = REOPEN.exec(p.text)
  if (reopen !== null) return subtaskOnCard(p, "reopen_subtask", reopen[1])
  const first = MARK_STATE_FIRST.exec(p.text)
  if (first !== null) return toggleIntent(p, stateOf(first[2]), first[1], first[3])
  const last = MARK_STATE_LAST.exec(p.text)
  if (last !== null) {
    const split = splitAt(last[1], CARD_MARKERS, { prefer: "last", card: "right" })
    // Without a card after it, "mark WEB-4 as done" is about the card itself.
    if (split !== undefined) return toggleIntent(p, stateOf(last[2]), split.left, split.right)
  }
  return undefined
}
