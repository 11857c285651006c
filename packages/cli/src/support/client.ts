/**
 * The typed client of the HttpApi contract the server is built from (`@board/http/Api`), with
 * client sides of its credential middleware: each adds the header its endpoints accept.
 */
import { Api } from "@board/http/Api"
import { Context, Effect, Layer } from "effect"
import * as NodeHttpClient from "@effect/platform-node/NodeHttpClient"
import { HttpClient, HttpClientRequest } from "effect/http"
import { HttpApi, HttpApiClient, HttpApiMiddleware } from "effect/http-api"
import { withDeadline } from "./deadline.ts"
import { Settings } from "./settings.ts"

export type BoardClient = HttpApiClient.ForApi<typeof Api>

/** The credentials requests carry; signup and login switch from a session to the new key. */
export interface Credentials {
  apiKey: string | undefined
  session: string | undefined
  intakeKey: string | undefined
}

export class BoardApi extends Context.Service<
  BoardApi,
  {
    readonly client: BoardClient
    readonly credentials: Credentials
    /** Retry-After of the last 429, in seconds. */
    readonly retryAfter: () => string | undefined
  }
>()("board/cli/BoardApi") {}

type Request = HttpClientRequest.HttpClientRequest
const withKey = (request: Request, key: string | undefined) =>
  key === undefined ? request : HttpClientRequest.setHeader(request, "x-api-key", key)

/**
 * What each credential middleware of the contract sends. A missing credential sends nothing:
 * the server's 401 then says what is missing, and the CLI adds how to sign in.
 */
const headersFor: Record<string, (creds: Credentials, request: Request) => Request> = {
  // API key or OAuth token: the board endpoints
  "board/http/UserAuth": (creds, request) => withKey(request, creds.apiKey),
  // session token or API key: the bootstrap steps use the session while there is one
  "board/http/BootstrapAuth": (creds, request) =>
    creds.session !== undefined
      ? HttpClientRequest.bearerToken(request, creds.session)
      : withKey(request, creds.apiKey),
  "board/http/AnyUserAuth": (creds, request) =>
    creds.session !== undefined
      ? HttpClientRequest.bearerToken(request, creds.session)
      : withKey(request, creds.apiKey),
  "board/http/IntakeAuth": (creds, request) =>
    creds.intakeKey === undefined ? request : HttpClientRequest.setHeader(request, "x-intake-key", creds.intakeKey)
}

/**
 * The middleware tags as the contract holds them: `@board/http` exports the Api, not its
 * middleware module, so they are found on the endpoints rather than imported.
 */
export const contractMiddleware = (): ReadonlyMap<string, HttpApiMiddleware.AnyService> => {
  const found = new Map<string, HttpApiMiddleware.AnyService>()
  HttpApi.reflect(Api, {
    onGroup: () => {},
    onEndpoint: ({ middleware }) => {
      for (const tag of middleware) found.set(tag.key, tag)
    }
  })
  return found
}

const credentialClients = (credentials: Credentials) => {
  const tags = contractMiddleware()
  const layers = Object.entries(headersFor).map(([key, addHeaders]) => {
    const tag = tags.get(key)
    // a renamed middleware would silently send requests without credentials
    if (tag === undefined)
      throw new Error(`the API contract has no middleware ${key}; update packages/cli/src/client.ts`)
    // biome-ignore lint/suspicious/noExplicitAny: the middleware tags are looked up by key; each has its own type
    return HttpApiMiddleware.layerClient(tag as any, ({ request, next }) =>
      next(addHeaders(credentials, request))
    ) as Layer.Layer<never>
  })
  return Layer.mergeAll(layers[0], ...layers.slice(1))
}

/**
 * Requests go through `node:http` rather than fetch: loading Node's fetch (undici) was about a
 * quarter of a short command's CPU (`card show`: 0.72 → 0.54 core-s). They take Node's own global
 * agents, as a plain `http.request` does: kept alive, so a command's requests share one connection
 * (one TLS handshake to a hosted server); an idle connection dropped before the server's
 * `Keep-Alive` timeout (else after 5 s), so a polling command never sends on one being closed; and
 * a proxy from HTTP(S)_PROXY when NODE_USE_ENV_PROXY is set, as fetch would. Taken through
 * `process.getBuiltinModule`: an ESM import of `node:http` would load undici anyway.
 */
const nodeHttpClient = NodeHttpClient.layerNodeHttpNoAgent.pipe(
  Layer.provide(
    Layer.succeed(NodeHttpClient.HttpAgent, {
      http: process.getBuiltinModule("node:http").globalAgent,
      https: process.getBuiltinModule("node:https").globalAgent
    })
  )
)

export const layer = Layer.unwrap(
  Effect.gen(function* () {
    const settings = yield* Settings
    const credentials: Credentials = { apiKey: settings.apiKey, session: undefined, intakeKey: settings.intakeKey }
    return Layer.effect(
      BoardApi,
      Effect.gen(function* () {
        let lastRetryAfter: string | undefined
        const client = yield* HttpApiClient.make(Api, {
          transformClient: (c) =>
            c.pipe(
              HttpClient.mapRequest((r) =>
                HttpClientRequest.setHeader(HttpClientRequest.prependUrl(r, settings.origin), "user-agent", "board-cli")
              ),
              HttpClient.tap((response) =>
                Effect.sync(() => {
                  if (response.status === 429) lastRetryAfter = response.headers["retry-after"]
                })
              ),
              withDeadline(settings.timeout)
            )
        })
        return BoardApi.of({ client, credentials, retryAfter: () => lastRetryAfter })
      })
    ).pipe(Layer.provide(credentialClients(credentials)), Layer.provide(nodeHttpClient))
  })
)
