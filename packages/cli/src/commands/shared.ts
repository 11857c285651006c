/** Options and argument parsers several commands share. */
import { Effect } from "effect"
import { linkTypes, priorities, relevances } from "@board/core/contract"
import { InvalidArgumentError, Option } from "commander"
import { readStdin } from "../support/prompt.ts"

export const projectOption = () =>
  new Option(
    "-p, --project <project>",
    "project name, ref prefix (WEB) or id; default: the saved project, else your only one"
  )

/** "a, b or c" */
const oneOf = (values: ReadonlyArray<string>) => `${values.slice(0, -1).join(", ")} or ${values.at(-1)}`

export const priorityOption = () => new Option("--priority <priority>", oneOf(priorities)).choices(priorities)

export const linkTypeOption = () => new Option("-t, --type <type>", oneOf(linkTypes)).choices(linkTypes)

export { relevances }

export const wholeNumber =
  (min: number, max = Number.MAX_SAFE_INTEGER) =>
  (value: string): number => {
    const n = Number(value)
    if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < min || n > max) {
      throw new InvalidArgumentError(
        max === Number.MAX_SAFE_INTEGER
          ? `must be a whole number from ${min}`
          : `must be a whole number from ${min} to ${max}`
      )
    }
    return n
  }

export const collect = (value: string, previous: ReadonlyArray<string> | undefined): Array<string> => [
  ...(previous ?? []),
  value
]

/** `--description -` reads the description from stdin. */
export const textOrStdin = (value: string | undefined) =>
  value === "-" ? Effect.map(readStdin, (t) => t.replace(/\r?\n$/, "")) : Effect.succeed(value)
