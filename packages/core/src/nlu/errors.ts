import type { IntentType, ParseResult } from "./types.ts"

/** One command per intent that is known to parse; error messages quote them. */
export const EXAMPLES: Readonly<Record<IntentType, string>> = {
  create_card: 'create card "Fix login" in To Do with priority high',
  move_card: "move WEB-12 to Done",
  rename_card: 'rename WEB-4 to "Better title"',
  set_priority: "set priority of WEB-4 to high",
  set_description: 'set description of WEB-4 to "Crashes when saving"',
  add_label: "add label bug to WEB-4",
  remove_label: "remove label bug from WEB-4",
  add_subtask: 'add subtask "write tests" to WEB-4',
  complete_subtask: 'complete subtask "write tests" on WEB-4',
  reopen_subtask: 'reopen subtask "write tests" on WEB-4',
  link_cards: "WEB-4 blocks WEB-5",
  delete_card: "delete WEB-4",
  archive_card: "archive WEB-4",
  restore_card: "restore WEB-4",
  search: "search for login bug",
  show_card: "show WEB-4"
}

export const fail = (type: IntentType, why: string): ParseResult => ({
  ok: false,
  error: `${why} Try: ${EXAMPLES[type]}`
})

const shorten = (text: string): string => (text.length > 60 ? `${text.slice(0, 57)}...` : text)

// When no rule matched, the first word usually still tells what was meant.
const HINTS: ReadonlyArray<readonly [RegExp, IntentType, string]> = [
  [
    /^(?:create|new|add|make)\b/i,
    "create_card",
    'To create a card, give its title (quote it if it contains "in" or "to").'
  ],
  [/^(?:move|put|drag|shift|send|place)\b/i, "move_card", "To move a card, name the card and the column."],
  [/^(?:rename|retitle)\b/i, "rename_card", "To rename a card, name the card and the new title."],
  [/^(?:prioriti[sz]e)\b|\bpriority\b/i, "set_priority", "A priority is one of low, medium, high or urgent."],
  [/^describe\b|\bdescription\b/i, "set_description", "To set a description, name the card and the text."],
  [
    /^(?:untag|unlabel)\b|^(?:remove|delete)\s+(?:the\s+)?(?:label|tag)\b/i,
    "remove_label",
    "To remove a label, name the label and the card."
  ],
  [/^(?:label|tag)\b|\b(?:label|tag)\b/i, "add_label", "To label a card, name the card and one label."],
  [
    /^(?:reopen|re-open|uncheck|untick|uncomplete)\b/i,
    "reopen_subtask",
    "To reopen a subtask, name the subtask and the card."
  ],
  [
    /\bsub-?tasks?\b|^(?:complete|finish|check|tick)\b/i,
    "complete_subtask",
    "To complete a subtask, name the subtask and the card."
  ],
  [
    /^(?:link|connect|relate|associate)\b|\b(?:block(?:s|ed|ing)?|duplicates?|depends|relates|part\s+of)\b/i,
    "link_cards",
    "To link cards, name both cards; quote titles that are not refs."
  ],
  [/^(?:archive|shelve)\b/i, "archive_card", "To archive a card, name it by ref or quoted title."],
  [/^(?:restore|unarchive)\b/i, "restore_card", "To restore a card, name it by ref or quoted title."],
  [/^(?:delete|remove|trash|destroy|erase)\b/i, "delete_card", "To delete a card, name it by ref or quoted title."],
  [/^(?:search|find|look|lookup|which|list)\b/i, "search", "To search, say what to look for."],
  [/^(?:show|open|view|display|what)\b/i, "show_card", "To show a card, name it by ref or quoted title."]
]

export const notUnderstood = (text: string): ParseResult => {
  for (const [pattern, type, why] of HINTS) {
    if (pattern.test(text)) return fail(type, `I could not understand "${shorten(text)}". ${why}`)
  }
  return {
    ok: false,
    error:
      `I could not understand "${shorten(text)}". Try: ${EXAMPLES.move_card}, or ${EXAMPLES.create_card}, ` +
      `or ${EXAMPLES.search}`
  }
}
