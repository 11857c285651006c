/**
 * Validation of card fields, shared by REST, natural-language commands, MCP tools and intake.
 * The rules themselves (limits, messages, how characters count) are the domain's text rules
 * (`domain/text.ts`), the same checks the HTTP contract runs on a request.
 */
import { InvalidInput } from "../domain/errors.ts"
import { priorities, Priority } from "../domain/enums.ts"
import { limits } from "../domain/limits.ts"
import { dateTimeMessage, isDateTime, noNul, type TextLimit, textFailure } from "../domain/text.ts"
import { isUuid } from "../domain/ids.ts"
import { quote } from "./names.ts"
import { Schema } from "effect"

const failure = (message: string | undefined): InvalidInput | undefined =>
  message === undefined ? undefined : new InvalidInput({ message })

const check = (value: string, field: string, limit: TextLimit) => failure(textFailure(value, field, limit))

/** PostgreSQL text cannot hold NUL characters; every text field refuses them the same way. */
export const checkNoNul = (value: string | null | undefined, field: string): InvalidInput | undefined =>
  value != null && !noNul.passes(value) ? new InvalidInput({ message: `${field}: ${noNul.message}` }) : undefined

export const checkTitle = (title: string, field = "title"): InvalidInput | undefined =>
  check(title, field, { max: limits.cardTitle, nonBlank: true, counted: true })

export const checkDescription = (
  description: string | null | undefined,
  field = "description"
): InvalidInput | undefined =>
  description == null
    ? undefined
    : check(description, field, { max: limits.cardDescription, nonBlank: false, counted: true })

const isPriority = Schema.is(Priority)

export const checkPriority = (priority: string | undefined): InvalidInput | undefined =>
  priority !== undefined && !isPriority(priority)
    ? new InvalidInput({ message: `priority: must be one of ${priorities.join(", ")}` })
    : undefined

export const checkName = (name: string, field = "name"): InvalidInput | undefined =>
  check(name, field, { max: limits.name, nonBlank: true })

/** The first failure among the checks, if any. */
export const firstFailure = (...checks: ReadonlyArray<InvalidInput | undefined>): InvalidInput | undefined =>
  checks.find((c) => c !== undefined)

export type { Priority }

/** `dueAt`: an ISO 8601 date-time (null clears it; undefined leaves it). */
export const checkDueAt = (dueAt: string | null | undefined): InvalidInput | undefined =>
  dueAt == null || isDateTime(dueAt) ? undefined : new InvalidInput({ message: `dueAt: ${dateTimeMessage}` })

/** `assigneeIds`: user ids, at most `limits.assignees` of them (whether each is a member is the database's to say). */
export const checkAssignees = (ids: ReadonlyArray<string> | undefined): InvalidInput | undefined => {
  if (ids === undefined) return undefined
  const bad = ids.find((id) => !isUuid(id))
  if (bad !== undefined) return new InvalidInput({ message: `assigneeIds: ${quote(bad)} is not a user id (a UUID)` })
  if (new Set(ids).size > limits.assignees)
    return new InvalidInput({ message: `assigneeIds: at most ${limits.assignees} assignees` })
  return undefined
}
