import { fail } from "./errors.ts"
import type { Prepared, Rule } from "./prepare.ts"
import type { ParseResult } from "./types.ts"
import { leadingCard, name, parseCard, parsePriority, PRIORITY_WORDS, restore, splitAt } from "./values.ts"

const PW = PRIORITY_WORDS

// Descriptions are matched on the text that kept its end punctuation.
const DESCRIPTION_OF =
  /^(?:set|change|update|replace|edit|write)\s+(?:the\s+)?description\s+(?:of|for|on)\s+([\s\S]+)$/i
const DESCRIPTION_POSSESSIVE =
  /^(?:set|change|update|replace|edit)\s+(.+?)(?:'s)?\s+description\s*(?:(?:to|as|with)\s+|:\s*)([\s\S]+)$/i
const DESCRIBE = /^describe\s+([\s\S]+)$/i
const CLEAR_DESCRIPTION =
  /^(?:clear|remove|delete|erase|empty|wipe)\s+(?:the\s+)?description\s+(?:of|for|on|from)\s+([\s\S]+)$/i

const descriptionIntent = (p: Prepared, cardText: string, text: string): ParseResult => {
  const card = parseCard(p, cardText)
  if (card === undefined) return fail("set_description", "Name the card to describe.")
  const description = restore(p, text).trim()
  if (description === "")
    return fail("set_description", 'The description is empty; to clear it, say "clear description of WEB-4".')
  return { ok: true, intent: { type: "set_description", card, description } }
}

/** Card, then a marker word or a colon, then the text. */
const cardThenText = (p: Prepared, body: string, markers: string): ParseResult | undefined => {
  const lead = leadingCard(p, body)
  if (lead !== undefined) {
    const text = lead.rest.replace(new RegExp(`^(?:${markers})(?:\\s+|$)`, "i"), "")
    return /^[\s.!?]*$/.test(text) ? undefined : descriptionIntent(p, lead.cardText, text)
  }
  const colon = /^([^:\n]+?)\s*:\s*([\s\S]+)$/.exec(body)
  if (colon !== null) return descriptionIntent(p, colon[1], colon[2])
  const split = splitAt(body, markers, { prefer: "first", card: "left" })
  return split === undefined ? undefined : descriptionIntent(p, split.left, split.right)
}

export const setDescription: Rule = (p) => {
  const text = p.textWithPunctuation
  const clear = CLEAR_DESCRIPTION.exec(p.text)
  if (clear !== null) {
    const card = parseCard(p, clear[1])
    if (card === undefined) return fail("set_description", "Name the card whose description to clear.")
    return { ok: true, intent: { type: "set_description", card, description: "" } }
  }
  const of = DESCRIPTION_OF.exec(text)
  if (of !== null) {
    return (
      cardThenText(p, of[1], "to|as|with") ??
      fail("set_description", "To set a description, name the card and the text.")
    )
  }
  const possessive = DESCRIPTION_POSSESSIVE.exec(text)
  if (possessive !== null && !/^the$/i.test(possessive[1])) return descriptionIntent(p, possessive[1], possessive[2])
  const describe = DESCRIBE.exec(text)
  // "describe WEB-4" with no text asks to see the card; the show rule takes it.
  return describe === null ? undefined : cardThenText(p, describe[1], "as|with")
}

const PRIORITY_OF =
  /^(?:set|change|update|raise|lower|bump|make|put)\s+(?:the\s+)?(?:priority|prio)\s+(?:of|for|on)\s+([\s\S]+)$/i
const PRIORITY_VALUE_FIRST =
  /^(?:set|change|update|raise|lower|bump)\s+(?:the\s+)?(?:priority|prio)\s+(?:to\s+)?(\S+)\s+(?:on|for|of)\s+([\s\S]+)$/i
const CARD_PRIORITY =
  /^(?:set|change|update|raise|lower|bump)\s+(.+?)(?:'s)?\s+(?:priority|prio)\s+(?:to|as|at|=)\s+(\S+)$/i
const MAKE_PRIORITY = new RegExp(
  `^(?:make|mark|set|flag|change|bump|raise|lower)\\s+(.+?)\\s+(?:as\\s+|to\\s+)?(?:an?\\s+)?(${PW})(?:[- ](?:priority|prio))?$`,
  "i"
)
const PRIORITISE = new RegExp(
  `^prioriti[sz]e\\s+(.+?)\\s+(?:as|to|at)\\s+(?:an?\\s+)?(${PW})(?:[- ](?:priority|prio))?$`,
  "i"
)

const priorityIntent = (p: Prepared, cardText: string, word: string): ParseResult => {
  const priority = parsePriority(word.replace(/[- ](?:priority|prio)$/i, ""))
  if (priority === undefined) {
    return fail("set_priority", `"${name(p, word)}" is not a priority; use low, medium, high or urgent.`)
  }
  const card = parseCard(p, cardText)
  if (card === undefined) return fail("set_priority", "Name the card whose priority to set.")
  return { ok: true, intent: { type: "set_priority", card, priority } }
}

export const setPriority: Rule = (p) => {
  const of = PRIORITY_OF.exec(p.text)
  if (of !== null) {
    const split = splitAt(of[1], "to|as|at|=", { prefer: "last", card: "left" })
    if (split === undefined) return fail("set_priority", "Say which priority: low, medium, high or urgent.")
    return priorityIntent(p, split.left, split.right)
  }
  const valueFirst = PRIORITY_VALUE_FIRST.exec(p.text)
  if (valueFirst !== null) return priorityIntent(p, valueFirst[2], valueFirst[1])
  const m = CARD_PRIORITY.exec(p.text) ?? MAKE_PRIORITY.exec(p.text) ?? PRIORITISE.exec(p.text)
  return m === null ? undefined : priorityIntent(p, m[1], m[2])
}

const labelIntent = (
  p: Prepared,
  type: "add_label" | "remove_label",
  cardText: string,
  labelText: string
): ParseResult => {
  const card = parseCard(p, cardText)
  const label = name(p, labelText.replace(/^(?:the\s+)?(?:label|tag)\s+/i, ""))
  const why = type === "add_label" ? "To label a card, name the card and one label." : "Name the label and the card."
  if (card === undefined || label === "") return fail(type, why)
  if (/,/.test(label)) return fail(type, "Give one label at a time.")
  return { ok: true, intent: { type, card, label } }
}

const ADD_LABEL = /^(?:add|apply|attach|put|set)\s+(?:the\s+|a\s+)?(?:label|tag)s?\s*:?\s+([\s\S]+)$/i
const ADD_NAMED_LABEL =
  /^(?:add|apply|attach|put)\s+(?:the\s+|a\s+)?(.+?)\s+(?:label|tag)\s+(?:to|on|onto)\s+([\s\S]+)$/i
const LABEL_CARD = /^(?:label|tag)\s+([\s\S]+)$/i
const REMOVE_LABEL =
  /^(?:remove|delete|drop|take|detach|strip|clear)\s+(?:the\s+|a\s+)?(?:label|tag)\s*:?\s+([\s\S]+)$/i
const REMOVE_NAMED_LABEL =
  /^(?:remove|delete|drop|take)\s+(?:the\s+)?(.+?)\s+(?:label|tag)\s+(?:from|off)\s+([\s\S]+)$/i
const UNTAG = /^(?:untag|unlabel)\s+([\s\S]+)$/i

/** "WEB-4 as bug", "WEB-4 with bug", "WEB-4 bug", or a bare title before "as"/"with". */
const cardThenLabel = (p: Prepared, type: "add_label" | "remove_label", body: string, markers: string): ParseResult => {
  const lead = leadingCard(p, body)
  if (lead !== undefined) {
    const label = lead.rest.replace(new RegExp(`^(?:${markers})(?:\\s+|$)`, "i"), "")
    return labelIntent(p, type, lead.cardText, label)
  }
  const split = splitAt(body, markers, { prefer: "last" })
  return split === undefined
    ? fail(type, "Name the card by ref or quoted title, then the label.")
    : labelIntent(p, type, split.left, split.right)
}

export const labels: Rule = (p) => {
  const named = ADD_NAMED_LABEL.exec(p.text)
  if (named !== null && !/^(?:label|tag)$/i.test(named[1])) return labelIntent(p, "add_label", named[2], named[1])
  const add = ADD_LABEL.exec(p.text)
  if (add !== null) {
    const split = splitAt(add[1], "to|on|onto|for", { prefer: "first", card: "right" })
    return split === undefined
      ? fail("add_label", "Name the label and the card it goes on.")
      : labelIntent(p, "add_label", split.right, split.left)
  }
  const removeNamed = REMOVE_NAMED_LABEL.exec(p.text)
  if (removeNamed !== null && !/^(?:label|tag)$/i.test(removeNamed[1])) {
    return labelIntent(p, "remove_label", removeNamed[2], removeNamed[1])
  }
  const remove = REMOVE_LABEL.exec(p.text)
  if (remove !== null) {
    const split = splitAt(remove[1], "from|off\\s+of|off|on", { prefer: "first", card: "right" })
    return split === undefined
      ? fail("remove_label", "Name the label and the card it comes off.")
      : labelIntent(p, "remove_label", split.right, split.left)
  }
  const untag = UNTAG.exec(p.text)
  if (untag !== null) {
    const fromCard = splitAt(untag[1], "from|off", { prefer: "last", card: "right" })
    if (fromCard !== undefined && leadingCard(p, untag[1]) === undefined) {
      return labelIntent(p, "remove_label", fromCard.right, fromCard.left)
    }
    return cardThenLabel(p, "remove_label", untag[1], "from|as|with")
  }
  const label = LABEL_CARD.exec(p.text)
  return label === null ? undefined : cardThenLabel(p, "add_label", label[1], "as|with")
}
