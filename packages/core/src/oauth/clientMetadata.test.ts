import { describe, expect, it } from "vitest"
import { validateRegistration } from "./clientMetadata.ts"

const base = { redirect_uris: ["http://127.0.0.1/callback"], token_endpoint_auth_method: "none" }

describe("validateRegistration", () => {
  it("accepts a public native client and fills RFC defaults", () => {
    const r = validateRegistration({
      ...base,
      client_name: "Claude Code",
      application_type: "native",
      logo_uri: "https://x/logo.png"
    })
    expect(r).toMatchObject({
      ok: true,
      client: {
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        scope: "mcp",
        extra: { logo_uri: "https://x/logo.png" }
      }
    })
    expect(validateRegistration({ redirect_uris: ["https://app.example/cb"] })).toMatchObject({
      ok: true,
      client: { token_endpoint_auth_method: "client_secret_basic" }
    })
  })

  it("drops the grant types, response types and scopes it does not support (RFC 7591 §3.2.1)", () => {
    expect(
      validateRegistration({
        ...base,
        grant_types: [
          "authorization_code",
          "refresh_token",
          "urn:ietf:params:oauth:grant-type:device_code",
          "authorization_code"
        ],
        response_types: ["code", "token", "id_token"],
        scope: "mcp offline_access openid"
      })
    ).toMatchObject({
      ok: true,
      client: { grant_types: ["authorization_code", "refresh_token"], response_types: ["code"], scope: "mcp" }
    })
  })

  it("registers refresh_token beside authorization_code: the token endpoint issues refresh tokens to every grant", () => {
    expect(validateRegistration({ ...base, grant_types: ["authorization_code"] })).toMatchObject({
      ok: true,
      client: { grant_types: ["authorization_code", "refresh_token"] }
    })
  })

  it.each([
    [{}, "invalid_redirect_uri"],
    [{ redirect_uris: [] }, "invalid_redirect_uri"],
    [{ redirect_uris: ["http://example.com/cb"] }, "invalid_redirect_uri"],
    [{ redirect_uris: ["javascript:alert(1)"] }, "invalid_redirect_uri"],
    [{ redirect_uris: Array.from({ length: 11 }, (_, i) => `https://a.example/${i}`) }, "invalid_redirect_uri"],
    // nothing usable left once the unsupported values are dropped
    [{ ...base, grant_types: ["implicit"] }, "invalid_client_metadata"],
    [{ ...base, grant_types: ["password"] }, "invalid_client_metadata"],
    [{ ...base, grant_types: ["client_credentials"] }, "invalid_client_metadata"],
    [{ ...base, grant_types: ["refresh_token"] }, "invalid_client_metadata"],
    [{ ...base, grant_types: [] }, "invalid_client_metadata"],
    [{ ...base, grant_types: "authorization_code" }, "invalid_client_metadata"],
    [{ ...base, response_types: ["token"] }, "invalid_client_metadata"],
    [{ ...base, scope: "admin openid" }, "invalid_client_metadata"],
    [{ ...base, scope: 7 }, "invalid_client_metadata"],
    [{ ...base, client_name: "x".repeat(201) }, "invalid_client_metadata"],
    [{ ...base, token_endpoint_auth_method: "private_key_jwt" }, "invalid_client_metadata"],
    [[1, 2], "invalid_client_metadata"]
  ])("%j → %s", (body, error) => {
    expect(validateRegistration(body)).toMatchObject({ ok: false, error })
  })
})
