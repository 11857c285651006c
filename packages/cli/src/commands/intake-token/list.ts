import { Effect } from "effect"
import type { Command } from "commander"
import type { App } from "../../support/app.ts"
import { BoardApi } from "../../support/client.ts"
import { columnName, examples } from "../../support/format.ts"
import { Lookup } from "../../support/lookup.ts"
import { Output, table } from "../../support/output.ts"
import { projectOption } from "../shared.ts"

export interface IntakeTokenListOptions {
  readonly project?: string
}

export const runIntakeTokenList = Effect.fn("intakeToken.list")(function* (options: IntakeTokenListOptions) {
  const { client } = yield* BoardApi
  const lookup = yield* Lookup
  const out = yield* Output
  const project = yield* lookup.project(options.project)
  const board = yield* lookup.board(project.id)
  const tokens = yield* client.intake.listTokens({ params: { projectId: project.id } })
  if (tokens.length === 0 && !out.json) return yield* out.message(`${project.name} has no intake tokens.`)
  yield* out.result(tokens, () =>
    table(
      tokens.map((t) => [
        t.name ?? out.style.dim("(no name)"),
        columnName(board, t.columnId),
        t.revokedAt !== null ? out.style.red("revoked") : t.expiresAt !== null ? `until ${t.expiresAt}` : "no expiry",
        out.style.dim(t.id)
      ]),
      out.style,
      ["NAME", "COLUMN", "STATE", "ID"]
    )
  )
})

export const registerIntakeTokenList = (intakeToken: Command, app: App) =>
  intakeToken
    .command("list")
    .alias("ls")
    .description("list a project's intake tokens (never the secrets)")
    .addOption(projectOption())
    .addHelpText("after", examples("board intake-token list", "board intake-token list --project Website --json"))
    .action((flags: IntakeTokenListOptions, cmd: Command) => app.run(cmd, flags, runIntakeTokenList))
