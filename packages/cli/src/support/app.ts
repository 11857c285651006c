/**
 * Runs a command's Effect with the services it needs, and turns its failure into a `CliExit`
 * (exit code and message) for `main`. The parse tests swap in an App that only records.
 */
import { Cause, Effect, Exit, Layer } from "effect"
import type { Command } from "commander"
import { BoardApi, layer as clientLayer } from "./client.ts"
import { CliFailure, describeFailure, signInHint } from "./failure.ts"
import { Lookup } from "./lookup.ts"
import { layer as outputLayer, type Output } from "./output.ts"
import { CliExit, exitCodes } from "./runtime.ts"
import { resolveSettings, Settings, type SettingsValues } from "./settings.ts"

export type CliServices = Settings | Output | BoardApi | Lookup

/** What a command needs before it may send anything. */
export type Needs = "apiKey" | "intakeKey" | "nothing"

export interface App {
  readonly run: <O, E>(
    cmd: Command,
    options: O,
    program: (options: O) => Effect.Effect<void, E, CliServices>,
    needs?: Needs
  ) => Promise<void>
}

const intakeHint =
  "set BOARD_INTAKE_KEY to an intake token (svc_in_…); a member mints one with `board intake-token create`"

const check = (settings: SettingsValues, needs: Needs) => {
  if (needs === "apiKey" && settings.apiKey === undefined) {
    throw new CliExit(exitCodes.auth, `error: not signed in: ${signInHint}`)
  }
  if (needs === "intakeKey" && settings.intakeKey === undefined) {
    throw new CliExit(exitCodes.auth, `error: no intake token: ${intakeHint}`)
  }
}

export const servicesLayer = (settings: SettingsValues) => {
  const base = Layer.succeed(Settings, settings)
  return Lookup.layer.pipe(Layer.provideMerge(clientLayer), Layer.provideMerge(outputLayer), Layer.provideMerge(base))
}

export const liveApp: App = {
  run: async (cmd, options, program, needs = "apiKey") => {
    const settings = resolveSettings(cmd)
    check(settings, needs)
    const onUnauthorized = needs === "intakeKey" ? intakeHint : signInHint
    const exit = await Effect.runPromiseExit(
      Effect.gen(function* () {
        const api = yield* BoardApi
        return yield* program(options).pipe(
          Effect.catch((e) =>
            Effect.flatMap(
              describeFailure(e, { apiUrl: settings.apiUrl, retryAfter: api.retryAfter, onUnauthorized }),
              Effect.fail
            )
          )
        )
      }).pipe(Effect.provide(servicesLayer(settings)))
    )
    if (Exit.isSuccess(exit)) return
    const error = Cause.squash(exit.cause)
    if (error instanceof CliFailure) throw new CliExit(error.code, `error: ${error.message}`)
    if (error instanceof CliExit) throw error
    throw new CliExit(exitCodes.error, `error: ${error instanceof Error ? error.message : String(error)}`)
  }
}
