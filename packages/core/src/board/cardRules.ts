/** Validation of card fields, shared by REST, natural-language commands, MCP tools and intake. */
import { InvalidInput } from "../domain/errors.ts"
import { priorities, type Priority } from "../domain/enums.ts"
import { charCount, limits } from "../domain/limits.ts"

/** PostgreSQL text cannot hold NUL characters; every text field refuses them the same way. */
export const checkNoNul = (value: string | null | undefined, field: string): InvalidInput | undefined =>
  value?.includes("\u0000")
    ? new InvalidInput({ message: `${field}: must not contain NUL (\\u0000) characters` })
    : undefined

export const checkTitle = (title: string, field = "title"): InvalidInput | undefined =>
  checkNoNul(title, field) ??
  (title.trim() === ""
    ? new InvalidInput({ message: `${field}: must not be blank` })
    : charCount(title) > limits.cardTitle
      ? new InvalidInput({
          message: `${field}: must be at most ${limits.cardTitle} characters (got ${charCount(title)})`
        })
      : undefined)

export const checkDescription = (
  description: string | null | undefined,
  field = "description"
): InvalidInput | undefined =>
  checkNoNul(description, field) ??
  (description != null && charCount(description) > limits.cardDescription
    ? new InvalidInput({
        message: `${field}: must be at most ${limits.cardDescription} characters (got ${charCount(description)})`
      })
    : undefined)

export const checkPriority = (priority: string | undefined): InvalidInput | undefined =>
  priority !== undefined && !(priorities as ReadonlyArray<string>).includes(priority)
    ? new InvalidInput({ message: `priority: must be one of ${priorities.join(", ")}` })
    : undefined

export const checkName = (name: string, field = "name"): InvalidInput | undefined =>
  checkNoNul(name, field) ??
  (name.trim() === ""
    ? new InvalidInput({ message: `${field}: must not be blank` })
    : charCount(name) > limits.name
      ? new InvalidInput({ message: `${field}: must be at most ${limits.name} characters` })
      : undefined)

/** The first failure among the checks, if any. */
export const firstFailure = (...checks: ReadonlyArray<InvalidInput | undefined>): InvalidInput | undefined =>
  checks.find((c) => c !== undefined)

export type { Priority }
