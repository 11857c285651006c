/**
 * The authorization server, in the same process and outside /api: RFC 8414 and RFC 9728
 * metadata, dynamic client registration (RFC 7591), the sign-in and consent page, and the
 * token endpoint with PKCE, single-use codes and rotating refresh tokens.
 */
import {
  Accounts,
  AppConfig,
  OAuth,
  type OAuthScope,
  oauthScopes,
  RateBudget,
  redirectTarget,
  ServerSecret,
  WebSessions,
  Workspaces
} from "@board/core"
import { Effect, Layer, Option, Redacted } from "effect"
import { HttpRouter, type HttpServerRequest, HttpServerResponse } from "effect/http"
import { checkAuthorizeRequest, redirectTo } from "./authorizeRequest.ts"
import { cookieNames, csrfToken, csrfValid, newBrowserNonce } from "./browserSession.ts"
import { renderConsentPage, renderErrorPage, renderRedirectErrorPage } from "./consentPage.ts"
import { discovery, json, noStore, oauthError, page } from "./responses.ts"

const REGISTRATION_MAX_BYTES = 16 * 1024

const AUTHORIZE_PARAMS = [
  "response_type",
  "client_id",
  "redirect_uri",
  "code_challenge",
  "code_challenge_method",
  "scope",
  "state",
  "resource"
]

export const OAuthRoutes = Layer.effectDiscard(
  Effect.gen(function* () {
    const router = yield* HttpRouter.HttpRouter
    const oauth = yield* OAuth
    const accounts = yield* Accounts
    const webSessions = yield* WebSessions
    const workspaces = yield* Workspaces
    const budget = yield* RateBudget
    const config = yield* AppConfig
    const keys = yield* ServerSecret
    const issuer = config.publicUrl
    const registrationBudget = { limit: config.registrationLimit.limit, windowMs: config.registrationLimit.windowMs }
    const secure = issuer.startsWith("https:")
    const names = cookieNames(secure)
    const cookieOptions = { httpOnly: true, secure, sameSite: "lax" as const, path: "/" }

    const metadata = {
      issuer,
      authorization_endpoint: `${issuer}/oauth/authorize`,
      token_endpoint: `${issuer}/oauth/token`,
      registration_endpoint: `${issuer}/oauth/register`,
      response_types_supported: ["code"],
      grant_types_supported: ["authorization_code", "refresh_token"],
      token_endpoint_auth_methods_supported: ["none", "client_secret_basic", "client_secret_post"],
      code_challenge_methods_supported: ["S256"],
      // a client_id may be the https URL of the client's metadata (clientIdDocument.ts)
      client_id_metadata_document_supported: true,
      scopes_supported: [...oauthScopes],
      authorization_response_iss_parameter_supported: true,
      service_documentation: `${issuer}/api/v1/docs`
    }
    const resourceMetadata = {
      resource: oauth.resource,
      authorization_servers: [issuer],
      scopes_supported: [...oauthScopes],
      bearer_methods_supported: ["header"],
      resource_name: "Board Service API"
    }

    /** Requests without a credential: the client address's budget (429 as OAuth JSON). */
    const limited = <E, R>(
      request: HttpServerRequest.HttpServerRequest,
      self: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>,
      custom?: { limit: number; windowMs: number }
    ) =>
      budget
        .charge(`${custom ? "register" : "ip"}:${Option.getOrElse(request.remoteAddress, () => "unknown")}`, custom)
        .pipe(
          Effect.matchEffect({
            onFailure: (e) =>
              Effect.succeed(
                json(
                  429,
                  { error: "slow_down", error_description: e.message },
                  { "retry-after": String(e.retryAfterSeconds) }
                )
              ),
            onSuccess: () => self
          })
        )

    const register = (request: HttpServerRequest.HttpServerRequest) =>
      Effect.gen(function* () {
        const text = yield* request.text.pipe(Effect.orElseSucceed(() => ""))
        if (Buffer.byteLength(text) > REGISTRATION_MAX_BYTES)
          return json(413, { error: "invalid_client_metadata", error_description: "registration body over 16 KiB" })
        let body: unknown
        try {
          body = JSON.parse(text)
        } catch {
          return json(400, {
            error: "invalid_client_metadata",
            error_description: "the body must be JSON client metadata"
          })
        }
        return yield* oauth.register(body).pipe(
          Effect.map((client) => {
            const { extra, ...registered } = client
            return json(201, {
              ...extra,
              ...registered,
              ...(client.client_secret === undefined ? {} : { client_secret_expires_at: 0 })
            })
          }),
          Effect.catchTag("OAuthError", (e) => Effect.succeed(oauthError(e)))
        )
      })

    const formOf = (request: HttpServerRequest.HttpServerRequest) =>
      request.urlParamsBody.pipe(
        Effect.map(
          (u): ReadonlyArray<readonly [string, string]> =>
            u.params.map(([k, v]) => [k, typeof v === "string" ? v : Redacted.value(v)] as const)
        ),
        Effect.orElseSucceed((): ReadonlyArray<readonly [string, string]> => [])
      )
    const first = (params: ReadonlyArray<readonly [string, string]>, key: string) =>
      params.find(([k]) => k === key)?.[1]

    /** The page for this request: the sign-in step, or the consent step when signed in. */
    const renderFor = (
      clientName: string,
      scope: OAuthScope,
      redirectUri: string,
      hidden: Record<string, string>,
      nonce: string,
      user: { email: string; id: string } | undefined,
      error: string | undefined,
      status = 200
    ) =>
      Effect.gen(function* () {
        const list =
          user === undefined ? [] : yield* workspaces.list({ userId: user.id, via: "session", workspaces: "all" })
        return page(
          status,
          renderConsentPage({
            clientName,
            scope,
            target: redirectTarget(redirectUri),
            hidden,
            csrf: csrfToken(keys.csrf, nonce),
            signedIn:
              user === undefined
                ? undefined
                : { email: user.email, workspaces: list.map((w) => ({ id: w.id, name: w.name })) },
            error
          }),
          redirectUri
        )
      })

    const authorize = (request: HttpServerRequest.HttpServerRequest) =>
      Effect.gen(function* () {
        const post = request.method === "POST"
        const form: ReadonlyArray<readonly [string, string]> = post ? yield* formOf(request) : []
        const query = new URL(request.url, issuer).searchParams
        const param = (k: string) => (post ? first(form, k) : (query.get(k) ?? undefined))
        const q: Record<string, string | undefined> = {}
        for (const k of AUTHORIZE_PARAMS) q[k] = param(k)
        const resolved = q.client_id === undefined ? undefined : yield* Effect.result(oauth.resolveClient(q.client_id))
        // a metadata document that cannot be used: why, for the client's developer (never redirected)
        if (resolved?._tag === "Failure") return page(400, renderErrorPage(`${resolved.failure.description}.`))
        const client = resolved?.success
        // the whole request is judged before anyone is asked for a password
        const check = checkAuthorizeRequest(q, client, oauth.resource)
        if (check.kind === "page") return page(400, renderErrorPage(check.message))
        const sessionSecret = request.cookies[names.session]
        let userId = yield* webSessions.consentUser(sessionSecret)
        if (check.kind === "redirect") {
          const location = redirectTo(check.redirectUri, {
            error: check.error,
            error_description: check.description,
            state: q.state,
            iss: issuer
          })
          // RFC 9700 §4.11.2, checklist Z7: anyone may register a client with their own redirect
          // URI, so an error goes back at once only to a client the signed-in person has already
          // granted; anyone else sees where the link would take them and chooses
          if (userId !== undefined && (yield* oauth.hasGrant(userId, client!.id)))
            return HttpServerResponse.redirect(location, { status: 303, headers: noStore })
          return page(
            400,
            renderRedirectErrorPage({
              clientName: client!.client_name ?? client!.id,
              target: redirectTarget(check.redirectUri),
              description: check.description,
              location
            })
          )
        }
        const { redirectUri } = check.params
        const hidden: Record<string, string> = {}
        for (const k of AUTHORIZE_PARAMS) if (q[k] !== undefined) hidden[k] = q[k]!
        const clientName = client!.client_name ?? q.client_id!
        let nonce = request.cookies[names.csrf]
        const freshNonce = nonce === undefined || nonce.length < 16
        if (freshNonce) nonce = newBrowserNonce()
        const withNonce = (res: HttpServerResponse.HttpServerResponse) =>
          freshNonce ? HttpServerResponse.setCookieUnsafe(res, names.csrf, nonce!, cookieOptions) : res
        let user: { email: string; id: string } | undefined
        let newSession: { secret: string; maxAgeSeconds: number } | undefined
        const back = (params: Record<string, string | undefined>) =>
          HttpServerResponse.redirect(redirectTo(redirectUri, { ...params, state: q.state, iss: issuer }), {
            status: 303,
            headers: noStore
          })
        const signInPage = (error: string | undefined, status?: number) =>
          renderFor(clientName, check.params.scope, redirectUri, hidden, nonce!, undefined, error, status)

        if (post) {
          if (!csrfValid(keys.csrf, request.cookies[names.csrf], first(form, "csrf"))) {
            return withNonce(
              page(
                400,
                renderErrorPage(
                  "This form expired or did not come from this site. Go back to the application and start the sign-in again."
                )
              )
            )
          }
          // denying needs no sign-in: the person at the browser said no, and the redirect goes to
          // a URI registered for this client (checked above)
          if (first(form, "decision") === "deny") {
            return withNonce(back({ error: "access_denied", error_description: "the user denied the request" }))
          }
          if (first(form, "account") === "switch") {
            // "Use another account": end this browser's sign-in and ask again
            yield* webSessions.endConsent(sessionSecret)
            return withNonce(
              HttpServerResponse.expireCookieUnsafe(yield* signInPage(undefined), names.session, cookieOptions)
            )
          }
          const email = first(form, "email")
          const password = first(form, "password")
          if (email !== undefined && password !== undefined) {
            const address = Option.getOrUndefined(request.remoteAddress)
            const session = yield* accounts.login({ email, password, ...(address ? { address } : {}) }).pipe(
              Effect.map((s) => ({ ok: s }) as const),
              Effect.catchTags({
                Unauthenticated: () => Effect.succeed({ refused: "Wrong email or password." } as const),
                TooManyRequests: (e) => Effect.succeed({ refused: `Sign-in paused: ${e.message}.`, e } as const)
              })
            )
            if ("refused" in session) {
              const res = yield* signInPage(session.refused, "e" in session ? 429 : undefined)
              return withNonce(
                "e" in session
                  ? HttpServerResponse.setHeader(res, "retry-after", String(session.e.retryAfterSeconds))
                  : res
              )
            }
            userId = session.ok.user.id
            user = { id: session.ok.user.id, email: session.ok.user.email }
            newSession = yield* webSessions.openConsent(userId)
          }
        }
        if (userId === undefined) return withNonce(yield* signInPage(post ? "Sign in to continue." : undefined))
        if (user === undefined) {
          const [row] = yield* accounts.profile(userId)
          if (row === undefined) return withNonce(yield* signInPage(undefined))
          user = row
        }
        const respond = (res: HttpServerResponse.HttpServerResponse) => {
          const withSession =
            newSession === undefined
              ? res
              : HttpServerResponse.setCookieUnsafe(res, names.session, newSession.secret, {
                  ...cookieOptions,
                  maxAge: `${newSession.maxAgeSeconds} seconds`
                })
          return withNonce(withSession)
        }
        const consentPage = (error?: string, status?: number) =>
          renderFor(clientName, check.params.scope, redirectUri, hidden, nonce!, user, error, status)
        if ((post ? first(form, "decision") : undefined) !== "allow") return respond(yield* consentPage())
        const ticked = [...new Set(form.filter(([k]) => k === "workspace").map(([, v]) => v))]
        // the Sign in step posts decision=allow with no workspace: the workspaces are shown now
        if (ticked.length === 0 && newSession !== undefined) return respond(yield* consentPage())
        if (ticked.length === 0) return respond(yield* consentPage("Tick at least one workspace to allow.", 400))
        const mine = new Set<string>(
          (yield* workspaces.list({ userId, via: "session", workspaces: "all" })).map((w) => w.id)
        )
        if (ticked.some((id) => !mine.has(id)))
          return respond(yield* consentPage("A ticked workspace is not one of yours.", 400))
        const code = yield* oauth.issueCode({ ...check.params, userId, workspaces: ticked })
        return respond(back({ code }))
      })

    const token = (request: HttpServerRequest.HttpServerRequest) =>
      Effect.gen(function* () {
        const form = yield* formOf(request)
        const field = (k: string) => first(form, k)
        let clientId = field("client_id")
        let clientSecret = field("client_secret")
        const basic = /^Basic\s+(.+)$/i.exec(request.headers.authorization ?? "")
        if (basic !== null) {
          const decoded = Buffer.from(basic[1]!, "base64").toString("utf8")
          const i = decoded.indexOf(":")
          if (i > 0) {
            // RFC 6749 §2.3.1: both halves are form-urlencoded; a malformed escape is the
            // client's mistake (400), not a URIError thrown out of the handler
            try {
              clientId = decodeURIComponent(decoded.slice(0, i))
              clientSecret = decodeURIComponent(decoded.slice(i + 1))
            } catch {
              return json(400, {
                error: "invalid_request",
                error_description: "the Basic credentials are not form-urlencoded: a % must start an escape such as %25"
              })
            }
          }
        }
        const grantType = field("grant_type")
        const result =
          grantType === "authorization_code"
            ? field("code") === undefined
              ? Effect.succeed(json(400, { error: "invalid_request", error_description: "code is required" }))
              : oauth
                  .exchangeCode({
                    code: field("code")!,
                    clientId,
                    clientSecret,
                    redirectUri: field("redirect_uri"),
                    codeVerifier: field("code_verifier"),
                    resource: field("resource")
                  })
                  .pipe(Effect.map((t) => json(200, t)))
            : grantType === "refresh_token"
              ? field("refresh_token") === undefined
                ? Effect.succeed(
                    json(400, { error: "invalid_request", error_description: "refresh_token is required" })
                  )
                : oauth
                    .refresh({
                      refreshToken: field("refresh_token")!,
                      clientId,
                      clientSecret,
                      scope: field("scope"),
                      resource: field("resource")
                    })
                    .pipe(Effect.map((t) => json(200, t)))
              : Effect.succeed(
                  json(400, {
                    error: grantType === undefined ? "invalid_request" : "unsupported_grant_type",
                    error_description: "grant_type must be authorization_code or refresh_token"
                  })
                )
        return yield* result.pipe(Effect.catchTag("OAuthError", (e) => Effect.succeed(oauthError(e))))
      })

    yield* router.add("GET", "/.well-known/oauth-authorization-server", discovery(metadata))
    yield* router.add("GET", "/.well-known/oauth-protected-resource/api", discovery(resourceMetadata))
    yield* router.add("POST", "/oauth/register", (request) => limited(request, register(request), registrationBudget))
    yield* router.add("GET", "/oauth/authorize", (request) => limited(request, authorize(request)))
    yield* router.add("POST", "/oauth/authorize", (request) => limited(request, authorize(request)))
    yield* router.add("POST", "/oauth/token", (request) => limited(request, token(request)))
  })
)
