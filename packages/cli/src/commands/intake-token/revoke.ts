import { Effect } from "effect"
import type { Command } from "commander"
import type { App } from "../../support/app.ts"
import { BoardApi } from "../../support/client.ts"
import { usageError } from "../../support/failure.ts"
import { examples } from "../../support/format.ts"
import { isUuid } from "../../support/lookup.ts"
import { Output } from "../../support/output.ts"

export interface IntakeTokenRevokeOptions {
  readonly id: string
}

export const runIntakeTokenRevoke = Effect.fn("intakeToken.revoke")(function* (options: IntakeTokenRevokeOptions) {
  const { client } = yield* BoardApi
  const out = yield* Output
  if (!isUuid(options.id))
    return yield* usageError("give the token's id (board intake-token list shows them), not the token itself")
  yield* client.intake.revokeToken({ params: { id: options.id } })
  yield* out.message("Revoked: the token is refused from now on.")
  yield* out.result({ revoked: { id: options.id } }, () => undefined)
})

export const registerIntakeTokenRevoke = (intakeToken: Command, app: App) =>
  intakeToken
    .command("revoke")
    .description("revoke an intake token at once")
    .argument("<id>", "the token's id, from `board intake-token list`")
    .addHelpText("after", examples("board intake-token revoke 0b6f1a52-…"))
    .action((id: string, _flags: object, cmd: Command) => app.run(cmd, { id }, runIntakeTokenRevoke))
