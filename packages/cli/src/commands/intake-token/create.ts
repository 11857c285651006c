import { Clock, Effect } from "effect"
import type { Command } from "commander"
import type { App } from "../../support/app.ts"
import { BoardApi } from "../../support/client.ts"
import { usageError } from "../../support/failure.ts"
import { examples } from "../../support/format.ts"
import { Lookup } from "../../support/lookup.ts"
import { Output } from "../../support/output.ts"
import { projectOption } from "../shared.ts"

export interface IntakeTokenCreateOptions {
  readonly column: string
  readonly project?: string
  readonly name?: string
  readonly expires?: string
}

/** `2027-12-31`, `2027-12-31T12:00:00Z` or `30d` (from now) as the API's ISO 8601 date-time. */
export const expiryOf = (value: string, nowMs: number): string | undefined => {
  const v = value.trim()
  const days = /^(\d{1,5})d$/.exec(v)
  if (days !== null) return new Date(nowMs + Number(days[1]) * 86_400_000).toISOString()
  if (/^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`))) return `${v}T00:00:00Z`
  if (/^\d{4}-\d{2}-\d{2}T/.test(v) && !Number.isNaN(Date.parse(v))) return v
  return undefined
}

export const runIntakeTokenCreate = Effect.fn("intakeToken.create")(function* (options: IntakeTokenCreateOptions) {
  const { client } = yield* BoardApi
  const lookup = yield* Lookup
  const out = yield* Output
  let expiresAt: string | undefined
  if (options.expires !== undefined) {
    expiresAt = expiryOf(options.expires, yield* Clock.currentTimeMillis)
    if (expiresAt === undefined)
      return yield* usageError(
        "--expires: give a date (2027-12-31), a date-time (2027-12-31T12:00:00Z) or days from now (30d)"
      )
  }
  const project = yield* lookup.project(options.project)
  const column = yield* lookup.column(yield* lookup.board(project.id), options.column)
  const token = yield* client.intake.mintToken({
    payload: {
      columnId: column.id,
      ...(options.name !== undefined ? { name: options.name } : {}),
      ...(expiresAt !== undefined ? { expiresAt } : {})
    }
  })
  yield* out.message(
    `Minted an intake token for ${project.name} › ${column.name}${token.expiresAt !== null ? `, valid until ${token.expiresAt}` : ""}. ` +
      "It is shown only this once: keep it, e.g. as BOARD_INTAKE_KEY for `board intake`."
  )
  yield* out.result(token, () => token.token)
})

export const registerIntakeTokenCreate = (intakeToken: Command, app: App) =>
  intakeToken
    .command("create")
    .description("mint an intake token that files cards into one column; prints the token (shown once)")
    .requiredOption("-c, --column <column>", "the column cards land in (name or id)")
    .addOption(projectOption())
    .option("--name <name>", 'what it is for, e.g. "support form"')
    .option("--expires <when>", "a date (2027-12-31), a date-time, or days from now (30d); default: never")
    .addHelpText(
      "after",
      examples(
        'board intake-token create --column "To Do" --name "support form"',
        'export BOARD_INTAKE_KEY=$(board intake-token create --column "To Do" --expires 90d --quiet)'
      )
    )
    .action((flags: IntakeTokenCreateOptions, cmd: Command) => app.run(cmd, flags, runIntakeTokenCreate))
