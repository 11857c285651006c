import { fail } from "./errors.ts"
import { ONLY_PLACEHOLDER } from "./prepare.ts"
import type { Prepared, Rule } from "./prepare.ts"
import type { Priority, ParseResult } from "./types.ts"
import { columnName, name, parseList, parsePriority, PRIORITY_WORDS, REF, splitAt } from "./values.ts"

const PW = PRIORITY_WORDS
const NOUN = "card|task|ticket|item|issue|story"

const CREATE = new RegExp(
  `^(create|add|make|new)\\s+(?:a\\s+|an\\s+|one\\s+|the\\s+)?(?:new\\s+)?` +
    `(?:(${PW})[- ](?:priority\\s+|prio\\s+)?)?(${NOUN})s?\\b\\s*(?:[:\\-\u2013\u2014]\\s*)?` +
    `(?:(?:titled|called|named|with\\s+(?:the\\s+)?title)\\s*:?\\s+)?([\\s\\S]*)$`,
  "i"
)
// "create Fix login": the verb alone is clear enough, unless another rule's noun follows.
const CREATE_BARE = /^create\s+(?!(?:a\s+|an\s+|the\s+)?(?:sub-?task|label|tag|link)\b)([\s\S]+)$/i
// "add "Write docs" to Done": a quoted title needs no noun either.
const ADD_QUOTED = /^add\s+(\uE000\d+\uE001(?:\s[\s\S]*)?)$/i

const PRIORITY_CLAUSE = new RegExp(
  `(?:,\\s*|\\s+)(?:and\\s+)?(?:(?:with|at|of)\\s+)?(?:(?:a|an)\\s+)?` +
    `(?:(?:priority|prio)\\s*(?:of\\s+|:\\s*|=\\s*|is\\s+|set\\s+to\\s+)?(${PW})|(${PW})[- ](?:priority|prio))\\b`,
  "gi"
)
const TRAILING_PRIORITY = new RegExp(`,\\s*(?:and\\s+)?(${PW})$`, "gi")
const LABEL_CLAUSE =
  /(?:,\s*|\s+)(?:and\s+)?(?:labell?ed|tagged(?:\s+(?:with|as))?|with\s+(?:the\s+)?(?:labels?|tags?)|labels?\s*:|tags?\s*:)\s+/gi

const COLUMN_MARKERS = "in|into|to|under"

// Without board knowledge "Fix bug in parser" could name a column "parser".
// Only text that reads like a column name is taken as one: quoted, called a
// column, capitalised, or a usual column name.
const KNOWN_COLUMNS =
  /^(?:to-?do|to do|backlog|doing|in progress|progress|review|in review|code review|qa|testing|done|blocked|ready|next|up next|later|icebox|inbox|triage|planned|wip|shipped|released)$/i
const looksLikeColumn = (raw: string): boolean => {
  const t = raw.trim()
  if (ONLY_PLACEHOLDER.test(t) || /^(?:the\s+)?(?:column|list|lane)\b|\s(?:column|list|lane)$/i.test(t)) return true
  const bare = t.replace(/^the\s+/i, "")
  return bare.split(/\s+/).length <= 3 && (/^\p{Lu}/u.test(bare) || KNOWN_COLUMNS.test(bare))
}

/** Title and column from the head of the command, before any other clause. */
const titleAndColumn = (head: string): { title: string; column?: string } => {
  const quotedFirst = /^(\uE000\d+\uE001)\s+(?:in|into|to|under)\s+([\s\S]+)$/i.exec(head)
  if (quotedFirst !== null) return { title: quotedFirst[1], column: quotedFirst[2] }
  const split = splitAt(head, COLUMN_MARKERS, { prefer: "last", backoff: true })
  if (split !== undefined && looksLikeColumn(split.right)) return { title: split.left, column: split.right }
  return { title: head }
}

interface Clause {
  readonly start: number
  readonly end: number
  readonly priority?: Priority
}

const clausesOf = (rest: string): Array<Clause> => {
  const clauses: Array<Clause> = []
  for (const m of rest.matchAll(PRIORITY_CLAUSE)) {
    clauses.push({ start: m.index, end: m.index + m[0].length, priority: parsePriority(m[1] ?? m[2]) })
  }
  for (const m of rest.matchAll(TRAILING_PRIORITY)) {
    clauses.push({ start: m.index, end: m.index + m[0].length, priority: parsePriority(m[1]) })
  }
  for (const m of rest.matchAll(LABEL_CLAUSE)) clauses.push({ start: m.index, end: m.index + m[0].length })
  clauses.sort((a, b) => a.start - b.start)
  // The same words can match twice ("high priority" and ", high"); keep the first.
  return clauses.filter((c, i) => i === 0 || c.start >= clauses[i - 1].end)
}

const parseCreate = (p: Prepared, rest: string, prefixPriority: Priority | undefined, verb: string): ParseResult => {
  const clauses = clausesOf(rest)
  const head = rest.slice(0, clauses[0]?.start ?? rest.length).trim()
  let { title, column } = titleAndColumn(head)
  let priority = prefixPriority
  const labels: Array<string> = []

  for (const [i, clause] of clauses.entries()) {
    let tail = rest.slice(clause.end, clauses[i + 1]?.start ?? rest.length).trim()
    const columnTail = splitAt(tail, COLUMN_MARKERS, { prefer: "last", backoff: true })
    const trailingColumn = /^(?:in|into|to|under)\s+([\s\S]+)$/i.exec(tail)
    if (clause.priority !== undefined) {
      priority = clause.priority
      if (trailingColumn !== null && column === undefined) column = trailingColumn[1]
      else if (tail !== "")
        return fail(
          "create_card",
          `I could not tell what "${name(p, tail)}" means here; quote the title if it belongs there.`
        )
    } else {
      if (column === undefined && columnTail !== undefined && looksLikeColumn(columnTail.right)) {
        column = columnTail.right
        tail = columnTail.left
      }
      labels.push(...parseList(p, tail).filter((l) => !labels.some((x) => x.toLowerCase() === l.toLowerCase())))
    }
  }

  const cleanTitle = name(p, title)
  if (cleanTitle === "") return fail("create_card", "A new card needs a title.")
  const cleanColumn = column === undefined ? undefined : columnName(p, column)
  if (cleanColumn !== undefined && REF.test(cleanColumn)) {
    // "add task write tests to WEB-4": a ref is never a column, so this is a subtask.
    if (verb.toLowerCase() === "add" && priority === undefined && labels.length === 0) {
      return { ok: true, intent: { type: "add_subtask", card: { ref: cleanColumn.toUpperCase() }, title: cleanTitle } }
    }
    return fail("create_card", `"${cleanColumn}" looks like a card, not a column.`)
  }
  return {
    ok: true,
    intent: {
      type: "create_card",
      title: cleanTitle,
      ...(cleanColumn !== undefined && cleanColumn !== "" ? { column: cleanColumn } : {}),
      ...(priority !== undefined ? { priority } : {}),
      labels
    }
  }
}

export const createCard: Rule = (p) => {
  const m = CREATE.exec(p.text)
  if (m !== null) return parseCreate(p, m[4], m[2] === undefined ? undefined : parsePriority(m[2]), m[1])
  const bare = CREATE_BARE.exec(p.text) ?? ADD_QUOTED.exec(p.text)
  if (bare !== null) return parseCreate(p, bare[1], undefined, p.text.split(/\s/)[0])
  return undefined
}
