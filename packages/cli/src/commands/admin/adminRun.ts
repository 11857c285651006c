/** `board admin …`: loaded only when the command runs. */
import { AppConfig, callAdmin, issuePasswordReset, layerOwner, NotFound } from "@board/core"
import { Effect, Layer } from "effect"
import { loadConfig, operatorFailure, runOperator, targetFor } from "../../support/operatorRuntime.ts"

const command = "board admin reset-password"

/**
 * Prints a password reset link: on PostgreSQL directly, on an embedded database through the
 * server that owns it, or by opening it when no server runs. The link goes to stdout, the rest
 * to stderr, so `$(board admin reset-password …)` is the link.
 */
export const runResetPassword = async (email: string): Promise<void> => {
  const config = loadConfig()
  const target = targetFor(config, command)
  const link =
    target.kind === "server"
      ? await callAdmin(target.owner.socket, { op: "reset-password", email }).catch((e) => {
          throw operatorFailure(command, config, e)
        })
      : await runOperator(
          command,
          config,
          issuePasswordReset(email).pipe(
            Effect.flatMap((made) =>
              made === undefined
                ? Effect.fail(new NotFound({ message: "no account has this email" }))
                : Effect.succeed(made)
            ),
            Effect.provide(Layer.mergeAll(layerOwner(config), Layer.succeed(AppConfig, config))),
            Effect.scoped
          ),
          ["InvalidInput", "NotFound"]
        )
  process.stderr.write(
    `${command}: a link for ${link.email}, valid until ${link.expiresAt}, used once; using it ends the account's web sessions\n`
  )
  process.stdout.write(`${link.url}\n`)
}
