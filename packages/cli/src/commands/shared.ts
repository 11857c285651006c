/** Options and argument parsers several commands share. */
import { Effect } from "effect"
import { InvalidArgumentError, Option } from "commander"
import { readStdin } from "../support/prompt.ts"

export const projectOption = () =>
  new Option("-p, --project <project>", "project name, ref prefix (WEB) or id; default: the saved project, else your only one")

export const priorityOption = () => new Option("--priority <priority>", "low, medium, high or urgent").choices(["low", "medium", "high", "urgent"] as const)

export const linkTypeOption = () =>
  new Option("-t, --type <type>", "relates_to, blocks, duplicates or is_part_of").choices(["relates_to", "blocks", "duplicates", "is_part_of"] as const)

export const relevances = ["none", "low", "medium", "high"] as const

export const wholeNumber = (min: number, max = Number.MAX_SAFE_INTEGER) => (value: string): number => {
  const n = Number(value)
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n) || n < min || n > max) {
    throw new InvalidArgumentError(max === Number.MAX_SAFE_INTEGER ? `must be a whole number from ${min}` : `must be a whole number from ${min} to ${max}`)
  }
  return n
}

export const collect = (value: string, previous: ReadonlyArray<string> | undefined): Array<string> => [...(previous ?? []), value]

/** `--description -` reads the description from stdin. */
export const textOrStdin = (value: string | undefined) =>
  value === "-" ? Effect.map(readStdin, (t) => t.replace(/\r?\n$/, "")) : Effect.succeed(value)
