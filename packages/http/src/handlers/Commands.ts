import { Commands } from "@board/core"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { Api } from "../Api.ts"
import { asPrincipal } from "./withPrincipal.ts"

export const CommandsHandlers = HttpApiBuilder.group(Api, "commands", (handlers) =>
  Effect.gen(function* () {
    const commands = yield* Commands
    return handlers.handle("run", ({ payload }) => asPrincipal((p) => commands.run(p, payload)))
  })
)
