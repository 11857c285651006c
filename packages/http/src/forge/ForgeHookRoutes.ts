/**
 * `POST /api/v1/forge-hooks/{repositoryId}`: a forge's webhook request. The forge's signature is
 * the credential, checked by the core on the raw body before anything is parsed or stored, so
 * the route reads the body as bytes (at most 1 MiB: `limits.bodyBytes`, 413 beyond) and hands
 * over the headers; the core answers. 202 `{ok: true}` for an applied, replayed or ignored
 * delivery; 401 for a missing or wrong signature; 404 for an unknown repository; 400 for a
 * payload that cannot be read (malformed JSON, another repository's event).
 */
import { Forge, limits } from "@board/core"
import { Effect, Layer } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { httpErrorResponse, toHttpError } from "../errors.ts"

const tooLarge = () =>
  HttpServerResponse.jsonUnsafe(
    { error: `Request body too large: the limit is ${limits.bodyBytes} bytes` },
    { status: 413 }
  )

export const ForgeHookRoutes = Layer.effectDiscard(
  Effect.gen(function* () {
    const router = yield* HttpRouter.HttpRouter
    const forge = yield* Forge
    yield* router.add(
      "POST",
      "/api/v1/forge-hooks/:repositoryId",
      Effect.gen(function* () {
        const request = yield* HttpServerRequest.HttpServerRequest
        const params = yield* HttpRouter.params
        const body = yield* request.arrayBuffer.pipe(Effect.option)
        if (body._tag === "None" || body.value.byteLength > limits.bodyBytes) return tooLarge()
        const headers: Record<string, string | undefined> = {}
        for (const [k, v] of Object.entries(request.headers)) headers[k.toLowerCase()] = v
        return yield* forge.receive(params.repositoryId ?? "", headers, new Uint8Array(body.value)).pipe(
          Effect.match({
            onFailure: (e) => httpErrorResponse(toHttpError(e)),
            onSuccess: () => HttpServerResponse.jsonUnsafe({ ok: true }, { status: 202 })
          })
        )
      })
    )
  })
)
