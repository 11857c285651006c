/**
 * "archive WEB-4" and "restore WEB-4": an archived card leaves the board but is kept whole (see
 * board/CardArchive.ts). "delete" stays its own rule (cardRules.ts's deleteCard).
 */
import { fail } from "./errors.ts"
import type { Rule } from "./prepare.ts"
import { parseCard } from "./values.ts"

const ARCHIVE = /^(?:archive|shelve)\s+(?:the\s+card\s+|card\s+)?([\s\S]+)$/i
const RESTORE = /^(?:restore|unarchive|un-archive)\s+(?:the\s+card\s+|card\s+)?([\s\S]+)$/i

export const archiveCard: Rule = (p) => {
  const m = ARCHIVE.exec(p.text)
  if (m === null) return undefined
  const card = parseCard(p, m[1])
  if (card === undefined) return fail("archive_card", "Name the card to archive.")
  return { ok: true, intent: { type: "archive_card", card } }
}

export const restoreCard: Rule = (p) => {
  const m = RESTORE.exec(p.text)
  if (m === null) return undefined
  const card = parseCard(p, m[1])
  if (card === undefined) return fail("restore_card", "Name the card to restore.")
  return { ok: true, intent: { type: "restore_card", card } }
}
