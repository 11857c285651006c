/**
 * The one module that names environment variables. `parseConfig` is pure so a
 * bad value can be reported as one line naming the variable before anything starts.
 *
 * Over 400 lines on purpose: every variable, its parsing and its one-line error live here, and
 * nowhere else (issue 29 asks for one place per rule); split by topic, a variable's name and its
 * rule would drift apart.
 */
import { Context } from "effect"

export type LogLevelName = "debug" | "info" | "warn" | "error"

export interface RateLimitSetting {
  readonly limit: number
  readonly windowMs: number
  /** The text as configured, e.g. `600/60s`, for docs and headers. */
  readonly text: string
}

export interface S3Settings {
  readonly bucket: string
  readonly endpoint: string | undefined
  readonly region: string
  readonly forcePathStyle: boolean
  readonly accessKeyId: string | undefined
  readonly secretAccessKey: string | undefined
}

/** Single sign-on through one OpenID provider (OIDC_*); docs/sso.md. */
export interface OidcSettings {
  /** The issuer URL as the provider names itself (discovery at `<issuer>/.well-known/openid-configuration`). */
  readonly issuer: string
  readonly clientId: string
  readonly clientSecret: string
  /** Lower-cased email domains that may sign in; empty: any. */
  readonly allowedDomains: ReadonlyArray<string>
  /** What the sign-in page's button says after "Sign in with" (OIDC_NAME, default "SSO"). */
  readonly name: string
}

/** Outgoing mail (SMTP_URL, MAIL_FROM): invitations and password resets are mailed only when set. */
export interface MailSettings {
  /** `smtp://user:pass@host:port` or `smtps://…`, as nodemailer takes it. */
  readonly smtpUrl: string
  /** The sender: `board@example.com` or `Board <board@example.com>`. */
  readonly from: string
}

export interface AppConfigValues {
  readonly host: string
  readonly port: number
  readonly publicUrl: string
  readonly databaseUrl: string | undefined
  /** `memory:` keeps nothing. */
  readonly dataDir: string
  readonly redisUrl: string | undefined
  readonly s3: S3Settings | undefined
  /** Raw SECRET from the environment; resolved (or generated into DATA_DIR) by `infra/Secret.ts`. */
  readonly secret: string | undefined
  readonly signupsOpen: boolean
  readonly rateLimit: RateLimitSetting
  /** OAuth dynamic client registrations per client address. */
  readonly registrationLimit: RateLimitSetting
  readonly signupIntervalMs: number
  readonly corsOrigins: ReadonlyArray<string>
  readonly logLevel: LogLevelName
  readonly logFormat: "json" | "pretty"
  readonly downloadUrlTtlSeconds: number
  /** An MCP session unused for this long is ended. */
  readonly mcpSessionIdleMs: number
  /** Live MCP sessions per user; opening one more ends their least recently used. */
  readonly mcpSessionsPerUser: number
  /** `/metrics` is served only when set, and only to `Authorization: Bearer <token>`. */
  readonly metricsToken: string | undefined
  /** OTLP/HTTP collector base URL: traces are exported there only when set. */
  readonly otelEndpoint: string | undefined
  /** The built web app served at `/` (WEB_DIR); unset: the repository's packages/web/dist. */
  readonly webDir: string | undefined
  /** Events older than this are deleted (EVENT_RETENTION). */
  readonly eventRetentionMs: number
  /** Webhook URLs may be `http:` as well as `https:` (WEBHOOK_ALLOW_HTTP). */
  readonly webhookAllowHttp: boolean
  /** Webhook URLs may resolve to loopback, private and link-local addresses (WEBHOOK_ALLOW_PRIVATE). */
  readonly webhookAllowPrivate: boolean
  /** The first retry's delay; each next one doubles, capped at 6 h (WEBHOOK_RETRY_BASE, default 30s). */
  readonly webhookRetryBaseMs: number
  /** How long a delivery's POST may take before it counts as failed (WEBHOOK_TIMEOUT, default 10s). */
  readonly webhookTimeoutMs: number
  /** A webhook failing for this long (its oldest failing delivery) is disabled (WEBHOOK_DISABLE_AFTER, default 3d). */
  readonly webhookDisableAfterMs: number
  /** A live stream's keep-alive comment interval (EVENT_STREAM_KEEPALIVE, default 15s; at most 15s). */
  readonly eventStreamKeepaliveMs: number
  /** Events a live stream may have queued before it is closed as too slow (EVENT_STREAM_BUFFER, default 1000). */
  readonly eventStreamBuffer: number
  /** Single sign-on, when OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET are set. */
  readonly oidc: OidcSettings | undefined
  /** Outgoing mail; undefined: links are only answered by the API (and printed by the CLI). */
  readonly mail: MailSettings | undefined
}

export class ConfigInvalid extends Error {
  readonly variable: string
  constructor(variable: string, message: string) {
    super(`${variable}: ${message}`)
    this.variable = variable
  }
}

const durationUnits: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 }

/** `90s`, `5m`, `1h`, `250ms`, `2d`; undefined when malformed. */
export const parseDurationMs = (text: string): number | undefined => {
  const m = /^(\d+)(ms|s|m|h|d)$/.exec(text.trim())
  if (!m) return undefined
  const value = Number(m[1]) * durationUnits[m[2]!]!
  return value > 0 && Number.isSafeInteger(value) ? value : undefined
}

export const parseRateLimit = (text: string): RateLimitSetting | undefined => {
  const m = /^(\d+)\/(\d+(?:ms|s|m|h|d))$/.exec(text.trim())
  if (!m) return undefined
  const limit = Number(m[1])
  const windowMs = parseDurationMs(m[2]!)
  if (!Number.isSafeInteger(limit) || limit < 1 || windowMs === undefined || windowMs < 1000) return undefined
  return { limit, windowMs, text: text.trim() }
}

const isTrue = (v: string) => /^(true|1|yes|on)$/i.test(v)

/** An optional true/false variable (false when unset). */
const booleanSetting = (variable: string, text: string | undefined): boolean => {
  if (text === undefined) return false
  if (!isTrue(text) && !isFalse(text)) {
    throw new ConfigInvalid(variable, `expected true or false, got ${JSON.stringify(text)}`)
  }
  return isTrue(text)
}
const isFalse = (v: string) => /^(false|0|no|off)$/i.test(v)

/** A URL as an error message may quote it: the password, if any, masked. */
export const maskUrlPassword = (value: string): string => value.replace(/\/\/([^/?#@:]*):[^/?#@]*@/, "//$1:***@")

const parseUrl = (variable: string, value: string, protocols: ReadonlyArray<string>): string => {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new ConfigInvalid(
      variable,
      `expected a URL (${protocols.join(" or ")}), got ${JSON.stringify(maskUrlPassword(value))}`
    )
  }
  if (!protocols.includes(url.protocol)) {
    throw new ConfigInvalid(
      variable,
      `expected a ${protocols.join(" or ")} URL, got ${JSON.stringify(maskUrlPassword(value))}`
    )
  }
  return value
}

/** 127.0.0.0/8, ::1 and localhost: addresses only this machine reaches. */
export const isLoopbackHost = (host: string): boolean =>
  host === "localhost" || host === "::1" || /^(::ffff:)?127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/i.test(host)

/**
 * The log format a start-up failure is written in when the configuration as a whole is invalid:
 * LOG_FORMAT when it is valid, else what `parseConfig` would choose without it.
 */
export const logFormatFor = (
  env: Readonly<Record<string, string | undefined>>,
  options: { readonly stdoutIsTty: boolean }
): "json" | "pretty" => {
  const text = env.LOG_FORMAT?.trim().toLowerCase()
  return text === "json" || text === "pretty" ? text : options.stdoutIsTty ? "pretty" : "json"
}

const MAIL_ADDRESS = /^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/

/** SMTP_URL and MAIL_FROM go together: one without the other is refused, naming the missing one. */
const parseMail = (smtpUrl: string | undefined, from: string | undefined): MailSettings | undefined => {
  if (smtpUrl === undefined) {
    if (from !== undefined)
      throw new ConfigInvalid("MAIL_FROM", "is set but SMTP_URL is not: set SMTP_URL (smtp://user:pass@host:port) too")
    return undefined
  }
  const url = new URL(parseUrl("SMTP_URL", smtpUrl, ["smtp:", "smtps:"]))
  if (url.hostname === "" || url.pathname.replace(/\/+$/, "") !== "") {
    throw new ConfigInvalid(
      "SMTP_URL",
      `expected smtp://user:pass@host:port or smtps://user:pass@host:port, got ${JSON.stringify(maskUrlPassword(smtpUrl))}`
    )
  }
  if (from === undefined)
    throw new ConfigInvalid("MAIL_FROM", "required when SMTP_URL is set: the sender, such as Board <board@example.com>")
  const named = /^([^<>]*)<([^<>]+)>$/.exec(from)
  const address = (named === null ? from : named[2]!).trim()
  if (!MAIL_ADDRESS.test(address) || /[\r\n]/.test(from)) {
    throw new ConfigInvalid(
      "MAIL_FROM",
      `expected an address such as board@example.com or Board <board@example.com>, got ${JSON.stringify(from)}`
    )
  }
  return { smtpUrl, from }
}

/** Throws `ConfigInvalid` naming the first bad variable. */
export const parseConfig = (
  env: Readonly<Record<string, string | undefined>>,
  options: { readonly stdoutIsTty: boolean } = { stdoutIsTty: false }
): AppConfigValues => {
  const get = (name: string): string | undefined => {
    const v = env[name]
    return v === undefined || v.trim() === "" ? undefined : v.trim()
  }
  const host = get("HOST") ?? "127.0.0.1"
  const portText = get("PORT") ?? "8080"
  // 0 (any free port) is refused: PUBLIC_URL's default, and so every link the server hands out, names the port
  if (!/^\d+$/.test(portText) || Number(portText) < 1 || Number(portText) > 65535) {
    throw new ConfigInvalid("PORT", `expected a port number 1-65535, got ${JSON.stringify(portText)}`)
  }
  const port = Number(portText)
  const publicUrlRaw = get("PUBLIC_URL")
  let publicUrl: string
  if (publicUrlRaw !== undefined) {
    const u = new URL(parseUrl("PUBLIC_URL", publicUrlRaw, ["http:", "https:"]))
    if (
      u.search !== "" ||
      u.hash !== "" ||
      u.pathname.replace(/\/+$/, "") !== "" ||
      u.username !== "" ||
      u.password !== ""
    ) {
      // the API lives at /api and OAuth at /oauth and /.well-known of this origin, so a path could not work
      throw new ConfigInvalid(
        "PUBLIC_URL",
        `expected an origin such as https://board.example.com (no path, query, fragment, user or password), got ${JSON.stringify(maskUrlPassword(publicUrlRaw))}`
      )
    }
    publicUrl = publicUrlRaw.replace(/\/+$/, "")
  } else {
    // Listening beyond this machine, the server cannot know the address its clients use (a
    // wildcard, a proxy, TLS in front): the links it hands out (OAuth issuer, download links,
    // the API index) went to 127.0.0.1, wrong for every other machine. Refused at start.
    if (!isLoopbackHost(host)) {
      throw new ConfigInvalid(
        "PUBLIC_URL",
        `required when HOST (${host}) is not a loopback address: set it to the origin clients use, such as https://board.example.com`
      )
    }
    const hostPart = host.includes(":") ? `[${host}]` : host
    publicUrl = `http://${hostPart}:${port}`
  }
  const databaseUrl = get("DATABASE_URL")
  if (databaseUrl !== undefined) parseUrl("DATABASE_URL", databaseUrl, ["postgres:", "postgresql:"])
  const redisUrl = get("REDIS_URL")
  if (redisUrl !== undefined) parseUrl("REDIS_URL", redisUrl, ["redis:", "rediss:"])

  const bucket = get("S3_BUCKET")
  let s3: S3Settings | undefined
  if (bucket !== undefined) {
    const endpoint = get("S3_ENDPOINT")
    if (endpoint !== undefined) parseUrl("S3_ENDPOINT", endpoint, ["http:", "https:"])
    const fps = get("S3_FORCE_PATH_STYLE")
    if (fps !== undefined && !isTrue(fps) && !isFalse(fps)) {
      throw new ConfigInvalid("S3_FORCE_PATH_STYLE", `expected true or false, got ${JSON.stringify(fps)}`)
    }
    s3 = {
      bucket,
      endpoint,
      region: get("S3_REGION") ?? "us-east-1",
      forcePathStyle: fps !== undefined ? isTrue(fps) : endpoint !== undefined,
      accessKeyId: get("AWS_ACCESS_KEY_ID"),
      secretAccessKey: get("AWS_SECRET_ACCESS_KEY")
    }
  }

  const secret = get("SECRET")
  if (secret !== undefined && Buffer.byteLength(secret, "utf8") < 32) {
    throw new ConfigInvalid("SECRET", "must be at least 32 bytes long (e.g. `openssl rand -hex 32`)")
  }
  const signupsText = get("SIGNUPS_OPEN") ?? "true"
  if (!isTrue(signupsText) && !isFalse(signupsText)) {
    throw new ConfigInvalid("SIGNUPS_OPEN", `expected true or false, got ${JSON.stringify(signupsText)}`)
  }
  const rateText = get("RATE_LIMIT") ?? "600/60s"
  const rateLimit = parseRateLimit(rateText)
  if (rateLimit === undefined) {
    throw new ConfigInvalid(
      "RATE_LIMIT",
      `expected N/window with a window of at least 1s, e.g. 600/60s, got ${JSON.stringify(rateText)}`
    )
  }
  const registrationText = get("REGISTRATION_LIMIT") ?? "20/1h"
  const registrationLimit = parseRateLimit(registrationText)
  if (registrationLimit === undefined) {
    throw new ConfigInvalid(
      "REGISTRATION_LIMIT",
      `expected N/window, e.g. 20/1h, got ${JSON.stringify(registrationText)}`
    )
  }
  const intervalText = get("SIGNUP_INTERVAL") ?? "5m"
  const signupIntervalMs = parseDurationMs(intervalText)
  if (signupIntervalMs === undefined) {
    throw new ConfigInvalid(
      "SIGNUP_INTERVAL",
      `expected a duration such as 5m, 30s or 1h, got ${JSON.stringify(intervalText)}`
    )
  }
  const corsOrigins = (get("CORS_ORIGINS") ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "")
  for (const origin of corsOrigins) {
    let ok = false
    try {
      const u = new URL(origin)
      ok = (u.protocol === "http:" || u.protocol === "https:") && u.origin === origin
    } catch {
      ok = false
    }
    if (!ok) {
      throw new ConfigInvalid(
        "CORS_ORIGINS",
        `each entry must be an exact origin like https://app.example.com, got ${JSON.stringify(origin)}`
      )
    }
  }
  const logLevel = (get("LOG_LEVEL") ?? "info").toLowerCase()
  if (!["debug", "info", "warn", "error"].includes(logLevel)) {
    throw new ConfigInvalid("LOG_LEVEL", `expected one of debug, info, warn, error, got ${JSON.stringify(logLevel)}`)
  }
  const logFormat = get("LOG_FORMAT")?.toLowerCase() ?? (options.stdoutIsTty ? "pretty" : "json")
  if (logFormat !== "json" && logFormat !== "pretty") {
    throw new ConfigInvalid("LOG_FORMAT", `expected json or pretty, got ${JSON.stringify(logFormat)}`)
  }
  const ttlText = get("DOWNLOAD_URL_TTL") ?? "300s"
  const ttlMs = parseDurationMs(ttlText)
  if (ttlMs === undefined || ttlMs < 1000 || ttlMs > 604_800_000) {
    throw new ConfigInvalid("DOWNLOAD_URL_TTL", `expected a duration from 1s to 7d, got ${JSON.stringify(ttlText)}`)
  }
  const idleText = get("MCP_SESSION_IDLE") ?? "1h"
  const mcpSessionIdleMs = parseDurationMs(idleText)
  if (mcpSessionIdleMs === undefined || mcpSessionIdleMs < 1000 || mcpSessionIdleMs > 30 * 86_400_000) {
    throw new ConfigInvalid("MCP_SESSION_IDLE", `expected a duration from 1s to 30d, got ${JSON.stringify(idleText)}`)
  }
  const perUserText = get("MCP_SESSIONS_PER_USER") ?? "32"
  const mcpSessionsPerUser = /^\d{1,4}$/.test(perUserText) ? Number(perUserText) : NaN
  if (!(mcpSessionsPerUser >= 1 && mcpSessionsPerUser <= 1000)) {
    throw new ConfigInvalid(
      "MCP_SESSIONS_PER_USER",
      `expected a whole number from 1 to 1000, got ${JSON.stringify(perUserText)}`
    )
  }
  const metricsToken = get("METRICS_TOKEN")
  // a short token is guessable, and the metrics name every route the service has
  if (metricsToken !== undefined && (metricsToken.length < 16 || /\s/.test(metricsToken))) {
    throw new ConfigInvalid(
      "METRICS_TOKEN",
      "must be at least 16 characters without spaces (e.g. `openssl rand -hex 16`)"
    )
  }
  const otelEndpoint = get("OTEL_EXPORTER_OTLP_ENDPOINT")
  if (otelEndpoint !== undefined) parseUrl("OTEL_EXPORTER_OTLP_ENDPOINT", otelEndpoint, ["http:", "https:"])
  const retentionText = get("EVENT_RETENTION") ?? "30d"
  const eventRetentionMs = parseDurationMs(retentionText)
  if (eventRetentionMs === undefined || eventRetentionMs < 60_000 || eventRetentionMs > 3650 * 86_400_000) {
    throw new ConfigInvalid(
      "EVENT_RETENTION",
      `expected a duration from 1m to 3650d, got ${JSON.stringify(retentionText)}`
    )
  }
  const webhookAllowHttp = booleanSetting("WEBHOOK_ALLOW_HTTP", get("WEBHOOK_ALLOW_HTTP"))
  const webhookAllowPrivate = booleanSetting("WEBHOOK_ALLOW_PRIVATE", get("WEBHOOK_ALLOW_PRIVATE"))
  // the three webhook timings are for tests and unusual receivers; the defaults are the contract's
  const webhookDuration = (variable: string, fallback: string, minMs: number, maxMs: number): number => {
    const text = get(variable) ?? fallback
    const ms = parseDurationMs(text)
    if (ms === undefined || ms < minMs || ms > maxMs)
      throw new ConfigInvalid(variable, `expected a duration such as ${fallback}, got ${JSON.stringify(text)}`)
    return ms
  }
  const webhookRetryBaseMs = webhookDuration("WEBHOOK_RETRY_BASE", "30s", 10, 3_600_000)
  const webhookTimeoutMs = webhookDuration("WEBHOOK_TIMEOUT", "10s", 100, 60_000)
  const webhookDisableAfterMs = webhookDuration("WEBHOOK_DISABLE_AFTER", "3d", 100, 30 * 86_400_000)
  // the contract promises a comment at least every 15 s; tests shorten it
  const keepaliveText = get("EVENT_STREAM_KEEPALIVE") ?? "15s"
  const eventStreamKeepaliveMs = parseDurationMs(keepaliveText)
  if (eventStreamKeepaliveMs === undefined || eventStreamKeepaliveMs < 10 || eventStreamKeepaliveMs > 15_000) {
    throw new ConfigInvalid(
      "EVENT_STREAM_KEEPALIVE",
      `expected a duration from 10ms to 15s, got ${JSON.stringify(keepaliveText)}`
    )
  }
  const bufferText = get("EVENT_STREAM_BUFFER") ?? "1000"
  const eventStreamBuffer = /^\d{1,6}$/.test(bufferText) ? Number(bufferText) : Number.NaN
  if (!(eventStreamBuffer >= 1 && eventStreamBuffer <= 100_000)) {
    throw new ConfigInvalid(
      "EVENT_STREAM_BUFFER",
      `expected a whole number from 1 to 100000, got ${JSON.stringify(bufferText)}`
    )
  }
  const oidc = parseOidc(get)
  const mail = parseMail(get("SMTP_URL"), get("MAIL_FROM"))
  return {
    host,
    port,
    mail,
    publicUrl,
    databaseUrl,
    dataDir: get("DATA_DIR") ?? "./.board-data",
    redisUrl,
    s3,
    secret,
    signupsOpen: isTrue(signupsText),
    rateLimit,
    registrationLimit,
    signupIntervalMs,
    corsOrigins,
    logLevel: logLevel as LogLevelName,
    logFormat,
    downloadUrlTtlSeconds: Math.floor(ttlMs / 1000),
    mcpSessionIdleMs,
    mcpSessionsPerUser,
    metricsToken,
    eventRetentionMs,
    webhookAllowHttp,
    webhookAllowPrivate,
    webhookRetryBaseMs,
    webhookTimeoutMs,
    webhookDisableAfterMs,
    eventStreamKeepaliveMs,
    eventStreamBuffer,
    otelEndpoint: otelEndpoint?.replace(/\/+$/, ""),
    webDir: get("WEB_DIR"),
    oidc
  }
}

const DOMAIN = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/

/**
 * OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET together or none of them. The issuer must be
 * https, except on a loopback host (a provider on this machine, as the tests run one): tokens and
 * the client secret travel to it.
 */
const parseOidc = (get: (name: string) => string | undefined): OidcSettings | undefined => {
  const names = ["OIDC_ISSUER", "OIDC_CLIENT_ID", "OIDC_CLIENT_SECRET"] as const
  const values = names.map(get)
  const extras = ["OIDC_ALLOWED_DOMAINS", "OIDC_NAME"].filter((n) => get(n) !== undefined)
  if (values.every((v) => v === undefined)) {
    if (extras.length > 0)
      throw new ConfigInvalid(extras[0]!, "set OIDC_ISSUER, OIDC_CLIENT_ID and OIDC_CLIENT_SECRET for single sign-on")
    return undefined
  }
  const missing = names.find((_, i) => values[i] === undefined)
  if (missing !== undefined)
    throw new ConfigInvalid(
      missing,
      "required with the other OIDC_ variables (OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET)"
    )
  const [issuerText, clientId, clientSecret] = values as [string, string, string]
  const issuer = new URL(parseUrl("OIDC_ISSUER", issuerText, ["https:", "http:"]))
  if (issuer.protocol === "http:" && !isLoopbackHost(issuer.hostname.replace(/^\[|\]$/g, ""))) {
    throw new ConfigInvalid(
      "OIDC_ISSUER",
      `must be an https URL (http only for a provider on this machine), got ${JSON.stringify(issuerText)}`
    )
  }
  if (issuer.search !== "" || issuer.hash !== "" || issuer.username !== "" || issuer.password !== "") {
    throw new ConfigInvalid(
      "OIDC_ISSUER",
      `expected the issuer URL without query, fragment or user, got ${JSON.stringify(issuerText)}`
    )
  }
  const allowedDomains = (get("OIDC_ALLOWED_DOMAINS") ?? "")
    .split(",")
    .map((d) => d.trim().toLowerCase().replace(/^@/, ""))
    .filter((d) => d !== "")
  const bad = allowedDomains.find((d) => !DOMAIN.test(d))
  if (bad !== undefined) {
    throw new ConfigInvalid(
      "OIDC_ALLOWED_DOMAINS",
      `expected comma-separated email domains such as example.com, got ${JSON.stringify(bad)}`
    )
  }
  const name = get("OIDC_NAME") ?? "SSO"
  if ([...name].length > 40 || /[\u0000-\u001f\u007f]/.test(name)) {
    throw new ConfigInvalid(
      "OIDC_NAME",
      "must be at most 40 characters without control characters, such as Google or Keycloak"
    )
  }
  return { issuer: issuerText, clientId, clientSecret, allowedDomains, name }
}

export class AppConfig extends Context.Service<AppConfig, AppConfigValues>()("board/core/AppConfig") {}
