import { describe, expect, it } from "vitest"
import { ConfigInvalid, parseConfig, parseDurationMs, parseRateLimit } from "./Config.ts"

describe("parseConfig", () => {
  it("has the CONTRACT defaults", () => {
    const c = parseConfig({})
    expect(c).toMatchObject({
      host: "127.0.0.1",
      port: 8080,
      publicUrl: "http://127.0.0.1:8080",
      dataDir: "./.board-data",
      databaseUrl: undefined,
      redisUrl: undefined,
      s3: undefined,
      signupsOpen: true,
      signupIntervalMs: 300_000,
      corsOrigins: [],
      logLevel: "info",
      logFormat: "json",
      downloadUrlTtlSeconds: 300
    })
    expect(c.rateLimit).toEqual({ limit: 600, windowMs: 60_000, text: "600/60s" })
    expect(parseConfig({}, { stdoutIsTty: true }).logFormat).toBe("pretty")
  })

  it("reads every variable", () => {
    const c = parseConfig({
      HOST: "0.0.0.0",
      PORT: "9000",
      PUBLIC_URL: "https://board.example.com/",
      DATABASE_URL: "postgres://u@db:5432/board",
      REDIS_URL: "redis://cache:6379",
      S3_BUCKET: "builds",
      S3_ENDPOINT: "http://127.0.0.1:4569",
      AWS_ACCESS_KEY_ID: "id",
      AWS_SECRET_ACCESS_KEY: "secret",
      SECRET: "x".repeat(32),
      SIGNUPS_OPEN: "false",
      RATE_LIMIT: "100/1m",
      SIGNUP_INTERVAL: "30s",
      CORS_ORIGINS: "https://a.example, http://localhost:3000",
      LOG_LEVEL: "DEBUG",
      LOG_FORMAT: "pretty"
    })
    expect(c.publicUrl).toBe("https://board.example.com")
    expect(c.s3).toMatchObject({ bucket: "builds", forcePathStyle: true, region: "us-east-1" })
    expect(c.rateLimit).toEqual({ limit: 100, windowMs: 60_000, text: "100/1m" })
    expect(c.corsOrigins).toEqual(["https://a.example", "http://localhost:3000"])
    expect(c.signupsOpen).toBe(false)
    expect(c.logLevel).toBe("debug")
  })

  it.each([
    ["PORT", "eighty"],
    ["PORT", "70000"],
    ["PORT", "0"],
    ["PUBLIC_URL", "ftp://x"],
    ["PUBLIC_URL", "https://x/?q=1"],
    ["PUBLIC_URL", "https://x.example/board"],
    ["PUBLIC_URL", "https://user:pw@x.example"],
    ["MCP_SESSION_IDLE", "forever"],
    ["MCP_SESSIONS_PER_USER", "0"],
    ["MCP_SESSIONS_PER_USER", "1001"],
    ["DATABASE_URL", "mysql://x"],
    ["REDIS_URL", "http://x"],
    ["SECRET", "too short"],
    ["SIGNUPS_OPEN", "perhaps"],
    ["RATE_LIMIT", "600"],
    ["RATE_LIMIT", "0/60s"],
    ["RATE_LIMIT", "10/500ms"],
    ["SIGNUP_INTERVAL", "five minutes"],
    ["CORS_ORIGINS", "*"],
    ["CORS_ORIGINS", "null"],
    ["CORS_ORIGINS", "https://a.example/path"],
    ["LOG_LEVEL", "loud"],
    ["LOG_FORMAT", "xml"],
    ["DOWNLOAD_URL_TTL", "8d"],
    ["METRICS_TOKEN", "short"],
    ["METRICS_TOKEN", "has a space in it somewhere"],
    ["OTEL_EXPORTER_OTLP_ENDPOINT", "collector:4318"],
    ["OTEL_EXPORTER_OTLP_ENDPOINT", "grpc://collector:4317"]
  ])("%s=%j is refused with a message naming it", (variable, value) => {
    const env = variable === "DOWNLOAD_URL_TTL" ? { [variable]: value } : { [variable]: value }
    let error: unknown
    try {
      parseConfig(env)
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(ConfigInvalid)
    expect((error as ConfigInvalid).variable).toBe(variable)
    expect((error as Error).message.startsWith(`${variable}:`)).toBe(true)
  })

  it("metrics and traces are off unless configured", () => {
    expect(parseConfig({})).toMatchObject({ metricsToken: undefined, otelEndpoint: undefined })
    expect(
      parseConfig({ METRICS_TOKEN: "0123456789abcdef", OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318/" })
    ).toMatchObject({ metricsToken: "0123456789abcdef", otelEndpoint: "http://collector:4318" })
  })

  it("mail is off unless SMTP_URL is set, and SMTP_URL and MAIL_FROM go together", () => {
    expect(parseConfig({}).mail).toBeUndefined()
    expect(
      parseConfig({ SMTP_URL: "smtps://u:p@mail.example:465", MAIL_FROM: "Board <board@example.com>" }).mail
    ).toEqual({ smtpUrl: "smtps://u:p@mail.example:465", from: "Board <board@example.com>" })
    for (const [env, variable] of [
      [{ SMTP_URL: "smtp://mail.example:25" }, "MAIL_FROM"],
      [{ MAIL_FROM: "board@example.com" }, "MAIL_FROM"],
      [{ SMTP_URL: "http://mail.example", MAIL_FROM: "board@example.com" }, "SMTP_URL"],
      [{ SMTP_URL: "smtp://u:hunter2@mail.example/x", MAIL_FROM: "board@example.com" }, "SMTP_URL"],
      [{ SMTP_URL: "smtp://mail.example", MAIL_FROM: "not an address" }, "MAIL_FROM"],
      [{ SMTP_URL: "smtp://mail.example", MAIL_FROM: "Board <board@example>" }, "MAIL_FROM"]
    ] as const) {
      let error: unknown
      try {
        parseConfig(env)
      } catch (e) {
        error = e
      }
      expect(error, JSON.stringify(env)).toBeInstanceOf(ConfigInvalid)
      expect((error as ConfigInvalid).variable).toBe(variable)
      expect((error as Error).message).not.toContain("hunter2")
    }
  })

  it("never quotes a password from a URL it refuses", () => {
    for (const [variable, value] of [
      ["DATABASE_URL", "mysql://admin:hunter2@db/x"],
      ["REDIS_URL", "http://u:hunter2@r:6379"],
      ["PUBLIC_URL", "https://u:hunter2@x.example/p"],
      ["DATABASE_URL", "not a url :hunter2@"]
    ]) {
      let message = ""
      try {
        parseConfig({ [variable!]: value })
      } catch (e) {
        message = (e as Error).message
      }
      expect(message.startsWith(`${variable}:`), message).toBe(true)
      if (value!.includes("//")) expect(message).not.toContain("hunter2")
    }
  })

  it("parses durations and rate limits", () => {
    expect(parseDurationMs("5m")).toBe(300_000)
    expect(parseDurationMs("250ms")).toBe(250)
    expect(parseDurationMs("0s")).toBeUndefined()
    expect(parseRateLimit("600/60s")).toEqual({ limit: 600, windowMs: 60_000, text: "600/60s" })
    expect(parseRateLimit("5/1h")?.windowMs).toBe(3_600_000)
  })

  it("reads single sign-on, and refuses what could not work in one line naming the variable", () => {
    expect(parseConfig({}).oidc).toBeUndefined()
    const sso = {
      OIDC_ISSUER: "https://id.example.com/realms/acme",
      OIDC_CLIENT_ID: "board",
      OIDC_CLIENT_SECRET: "s3cret"
    }
    expect(parseConfig({ ...sso, OIDC_ALLOWED_DOMAINS: "Example.com, @acme.io", OIDC_NAME: "Acme" }).oidc).toEqual({
      issuer: "https://id.example.com/realms/acme",
      clientId: "board",
      clientSecret: "s3cret",
      allowedDomains: ["example.com", "acme.io"],
      name: "Acme"
    })
    expect(parseConfig(sso).oidc).toMatchObject({ allowedDomains: [], name: "SSO" })
    // plain http only for a provider on this machine
    expect(parseConfig({ ...sso, OIDC_ISSUER: "http://127.0.0.1:9999" }).oidc?.issuer).toBe("http://127.0.0.1:9999")
    const refusals: Array<[Record<string, string>, string]> = [
      [{ ...sso, OIDC_CLIENT_SECRET: "" }, "OIDC_CLIENT_SECRET:"],
      [{ OIDC_ISSUER: sso.OIDC_ISSUER }, "OIDC_CLIENT_ID:"],
      [{ OIDC_ALLOWED_DOMAINS: "example.com" }, "OIDC_ALLOWED_DOMAINS:"],
      [{ ...sso, OIDC_ISSUER: "http://id.example.com" }, "OIDC_ISSUER: must be an https URL"],
      [{ ...sso, OIDC_ISSUER: "not a url" }, "OIDC_ISSUER:"],
      [{ ...sso, OIDC_ALLOWED_DOMAINS: "example.com,not a domain" }, "OIDC_ALLOWED_DOMAINS:"],
      [{ ...sso, OIDC_NAME: "x".repeat(41) }, "OIDC_NAME:"]
    ]
    for (const [env, start] of refusals) {
      let message = ""
      try {
        parseConfig(env)
      } catch (e) {
        expect(e).toBeInstanceOf(ConfigInvalid)
        message = (e as Error).message
      }
      expect(message.startsWith(start), `${JSON.stringify(env)}: ${message}`).toBe(true)
      expect(message).not.toContain("\n")
    }
  })
})
