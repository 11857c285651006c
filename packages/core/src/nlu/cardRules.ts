import { fail } from "./errors.ts"
import type { Prepared, Rule } from "./prepare.ts"
import type { ParseResult } from "./types.ts"
import { columnName, isStrongCard, name, parseCard, REF, restore, splitAt } from "./values.ts"

const ORDINALS: Record<string, number> = { first: 0, second: 1, third: 2, fourth: 3, fifth: 4 }

// Positions are 0-based in the intent; people count from 1 ("position 3").
// "bottom"/"last" map to no position at all: appending is the executor's default.
const POSITION_TAILS: ReadonlyArray<readonly [RegExp, (m: RegExpExecArray) => number | undefined]> = [
  [
    /,?\s+(?:at|to|on)\s+(?:the\s+)?(?:very\s+)?(?:top|start|beginning|front|head)(?:\s+of\s+(?:the\s+)?(?:column|list))?$/i,
    () => 0
  ],
  [
    /,?\s+(?:at|to|on)\s+(?:the\s+)?(?:very\s+)?(?:bottom|end|back|tail)(?:\s+of\s+(?:the\s+)?(?:column|list))?$/i,
    () => undefined
  ],
  [/,?\s+(?:at|in|to|into)\s+(?:position|pos|slot|place)\s*#?(\d+)$/i, (m) => Math.max(0, Number(m[1]) - 1)],
  [/,?\s+(?:at|in|to)\s+index\s+(\d+)$/i, (m) => Number(m[1])],
  [
    /,?\s+as\s+(?:the\s+)?(first|second|third|fourth|fifth|last|\d+(?:st|nd|rd|th))(?:\s+(?:card|item|one|entry))?$/i,
    (m) =>
      m[1].toLowerCase() === "last" ? undefined : (ORDINALS[m[1].toLowerCase()] ?? Math.max(0, parseInt(m[1], 10) - 1))
  ]
]

const MOVE = /^(?:move|put|drag|shift|send|place|push)\s+([\s\S]+)$/i
const MOVE_TOP_OF =
  /^(.+?)\s+(?:at|to|on)\s+(?:the\s+)?(?:very\s+)?(top|start|beginning|front|bottom|end)\s+of\s+([\s\S]+)$/i
const MOVE_MARKERS = "over\\s+to|back\\s+to|across\\s+to|to|into|in|onto|under"

const moveIntent = (p: Prepared, cardText: string, columnText: string, position: number | undefined): ParseResult => {
  const card = parseCard(p, cardText)
  const column = columnName(p, columnText)
  if (card === undefined || column === "") return fail("move_card", "To move a card, name the card and the column.")
  return {
    ok: true,
    intent: { type: "move_card", card, column, ...(position !== undefined ? { position } : {}) }
  }
}

export const moveCard: Rule = (p) => {
  const m = MOVE.exec(p.text)
  if (m === null) return undefined
  let body = m[1]
  const topOf = MOVE_TOP_OF.exec(body)
  if (topOf !== null && isStrongCard(topOf[1])) {
    return moveIntent(p, topOf[1], topOf[3], /^(?:bottom|end)$/i.test(topOf[2]) ? undefined : 0)
  }
  let position: number | undefined
  for (const [pattern, toPosition] of POSITION_TAILS) {
    const tail = pattern.exec(body)
    if (tail !== null) {
      position = toPosition(tail)
      body = body.slice(0, tail.index)
      break
    }
  }
  const split = splitAt(body, MOVE_MARKERS, { prefer: "last", card: "left", backoff: true })
  if (split === undefined) return fail("move_card", "To move a card, name the card and the column.")
  return moveIntent(p, split.left, split.right, position)
}

// "mark WEB-4 as done": the column most boards call Done.
const MARK_DONE = /^mark\s+([\s\S]+?)\s+(?:as\s+)?(?:done|finished|complete|completed)$/i

export const markDone: Rule = (p) => {
  const m = MARK_DONE.exec(p.text)
  if (m === null) return undefined
  return moveIntent(p, m[1], "Done", undefined)
}

const RENAME = /^(?:rename|retitle)\s+([\s\S]+)$/i
const CHANGE_TITLE = /^(?:change|set|update|edit)\s+(?:the\s+)?(?:title|name)\s+(?:of|for|on)\s+([\s\S]+)$/i
const CHANGE_TITLE_POSSESSIVE =
  /^(?:change|set|update|edit)\s+(.+?)(?:'s)?\s+(?:title|name)\s+(?:to|as|into)\s+([\s\S]+)$/i

const renameIntent = (p: Prepared, cardText: string, titleText: string): ParseResult => {
  const card = parseCard(p, cardText)
  const title = name(p, titleText)
  if (card === undefined || title === "")
    return fail("rename_card", "To rename a card, name the card and the new title.")
  return { ok: true, intent: { type: "rename_card", card, title } }
}

export const renameCard: Rule = (p) => {
  const possessive = CHANGE_TITLE_POSSESSIVE.exec(p.text)
  if (possessive !== null && !/^the\s+(?:title|name)\s/i.test(possessive[1])) {
    return renameIntent(p, possessive[1], possessive[2])
  }
  const m = RENAME.exec(p.text) ?? CHANGE_TITLE.exec(p.text)
  if (m === null) return undefined
  const colon = /^(.+?)\s*:\s+([\s\S]+)$/.exec(m[1])
  if (colon !== null && isStrongCard(colon[1])) return renameIntent(p, colon[1], colon[2])
  const split = splitAt(m[1], "to|as|into", { prefer: "first", card: "left" })
  if (split === undefined) return fail("rename_card", "To rename a card, name the card and the new title.")
  return renameIntent(p, split.left, split.right)
}

const DELETE = /^(delete|remove|trash|destroy|erase|drop|discard)\s+([\s\S]+)$/i

export const deleteCard: Rule = (p) => {
  const m = DELETE.exec(p.text)
  if (m === null) return undefined
  const body = m[2]
  if (/^(?:the\s+|a\s+)?(?:sub-?tasks?|checklist\s+items?)\b/i.test(body)) {
    return fail("complete_subtask", "Subtasks cannot be deleted by command; complete them instead.")
  }
  if (/^(?:the\s+|a\s+)?(?:labels?|tags?|links?|descriptions?)\b/i.test(body)) return undefined
  // "delete" is unambiguous; "remove X" names a card only when X clearly is one.
  const explicit = /^(?:delete|trash|destroy|erase)$/i.test(m[1]) || /^(?:the\s+)?card\s/i.test(body)
  if (!explicit && !isStrongCard(body)) return undefined
  if ((body.match(/\b[A-Za-z][A-Za-z0-9]*-\d+\b/g) ?? []).length > 1 && !isStrongCard(body)) {
    return fail("delete_card", "Delete one card at a time.")
  }
  const card = parseCard(p, body)
  if (card === undefined) return fail("delete_card", "Name the card to delete.")
  return { ok: true, intent: { type: "delete_card", card } }
}

const SEARCH = /^(?:search|find|look\s*up|look\s+for|query|grep|which|list)\b\s*([\s\S]*)$/i
const SEARCH_FILLER = [
  /^(?:for|me|up)(?:\s+|$)/i,
  /^(?:the\s+)?board(?:\s+for)?(?:\s+|$)/i,
  /^(?:all\s+)?(?:the\s+)?(?:cards?|tasks?|tickets?|items?)(?:\s+|$)/i,
  /^(?:that|which)(?:\s+|$)/i,
  /^(?:about|with|for|matching|regarding|named|called|titled|related\s+to|on|mention(?:s|ing)?|contain(?:s|ing)?|has|have|having)(?:\s+|$)/i
]

const searchIntent = (p: Prepared, body: string): ParseResult => {
  let query = body.trim()
  for (const filler of SEARCH_FILLER) query = query.replace(filler, "")
  const text = restore(p, query)
  if (text === "") return fail("search", "Say what to search for.")
  if (REF.test(text)) return { ok: true, intent: { type: "show_card", card: { ref: text.toUpperCase() } } }
  return { ok: true, intent: { type: "search", query: text } }
}

export const search: Rule = (p) => {
  const m = SEARCH.exec(p.text)
  return m === null ? undefined : searchIntent(p, m[1])
}

const SHOW =
  /^(?:show|open|view|display|get|see|describe|details\s+(?:of|for|on)|tell\s+me\s+about|info\s+(?:on|about|for)|what(?:'s|\s+is|\s+about))\s+(?:me\s+)?([\s\S]+?)(?:\s+about)?$/i
const SHOW_SEARCH =
  /^(?:all\s+)?(?:the\s+)?(?:cards?|tasks?|tickets?)\s+(?:about|with|for|matching|mentioning|containing|related\s+to|named|called|titled|that\s+mention|on)\s/i

export const showCard: Rule = (p) => {
  const m = SHOW.exec(p.text)
  if (m === null) return undefined
  if (SHOW_SEARCH.test(m[1])) return searchIntent(p, m[1])
  if (/^(?:all\s+)?(?:the\s+)?(?:cards|tasks|tickets)$/i.test(m[1]))
    return fail("search", "Say which cards to look for.")
  const card = parseCard(p, m[1].replace(/^(?:the\s+)?(?:status|state|details?|info)\s+(?:of|for|on)\s+/i, ""))
  if (card === undefined) return fail("show_card", "Name the card to show.")
  return { ok: true, intent: { type: "show_card", card } }
}
