import { Effect } from "effect"
import type { Command } from "commander"
import type { App } from "../support/app.ts"
import { BoardApi } from "../support/client.ts"
import { examples } from "../support/format.ts"
import { Output } from "../support/output.ts"
import { textOrStdin } from "./shared.ts"

export interface IntakeOptions {
  readonly title: string
  readonly description?: string
  readonly idempotencyKey?: string
}

/** Files a card with the intake token in BOARD_INTAKE_KEY; succeeds only on the server's 201. */
export const runIntake = Effect.fn("intake")(function* (options: IntakeOptions) {
  const { client } = yield* BoardApi
  const out = yield* Output
  const description = yield* textOrStdin(options.description)
  const answer = yield* client.intake.file({
    headers: options.idempotencyKey !== undefined ? { "idempotency-key": options.idempotencyKey } : {},
    payload: { title: options.title, ...(description !== undefined ? { description } : {}) }
  })
  yield* out.message("Filed.")
  if (out.json) yield* out.result(answer, () => undefined)
})

export const registerIntake = (program: Command, app: App) =>
  program
    .command("intake")
    .description("file a card through an intake token (BOARD_INTAKE_KEY), e.g. from a cron job; exit 0 only when filed")
    .argument("<title>", "the card's title")
    .option("-d, --description <text>", "its description; - reads it from stdin")
    .option("-k, --idempotency-key <key>", "the same key files one card however often it is sent (kept 7 days)")
    .addHelpText(
      "after",
      `${examples(
        'BOARD_INTAKE_KEY=svc_in_… board intake "Printer on fire" --description "3rd floor"',
        'df -h | board intake "Disk almost full on $(hostname)" --description - --idempotency-key "disk-$(date +%F)"'
      )}\nNeeds BOARD_INTAKE_KEY (a token from \`board intake-token create\`) and the API URL; no API key.\n`
    )
    .action((title: string, flags: Omit<IntakeOptions, "title">, cmd: Command) =>
      app.run(cmd, { title, ...flags }, runIntake, "intakeKey")
    )
