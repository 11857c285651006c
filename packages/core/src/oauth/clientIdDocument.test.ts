import { describe, expect, it } from "vitest"
import { cacheMsOf, DEFAULT_CACHE_MS, documentRegistration, isClientIdUrl, MAX_CACHE_MS } from "./clientIdDocument.ts"

describe("Client ID Metadata Documents", () => {
  it("knows a document's URL from a registered client_id", () => {
    expect(isClientIdUrl("https://app.example.com/oauth/client.json")).toBe(true)
    for (const no of [
      "board_client_abcdefghijklmnop",
      "http://app.example.com/client.json",
      "https://app.example.com/",
      "https://app.example.com",
      "https://app.example.com/a.json#frag",
      "https://user:pw@app.example.com/a.json",
      "https://app.example.com/x/../a.json",
      "https://app.example.com/./a.json"
    ])
      expect(isClientIdUrl(no)).toBe(false)
  })

  it("keeps a document as its Cache-Control says, within bounds", () => {
    expect(cacheMsOf(undefined)).toBe(DEFAULT_CACHE_MS)
    expect(cacheMsOf("public, max-age=60")).toBe(60_000)
    expect(cacheMsOf("max-age=99999999")).toBe(MAX_CACHE_MS)
    expect(cacheMsOf("no-store")).toBe(0)
    expect(cacheMsOf("max-age=600, no-cache")).toBe(0)
  })

  it("takes a document's registration only if it names itself and is a public client", () => {
    const url = "https://app.example.com/client.json"
    const doc = { client_id: url, client_name: "App", redirect_uris: ["http://127.0.0.1:1234/cb"] }
    const ok = documentRegistration(url, doc)
    expect(ok).toMatchObject({ ok: true, client: { client_name: "App", token_endpoint_auth_method: "none" } })
    expect(documentRegistration(url, { ...doc, client_id: "https://elsewhere.example/c.json" })).toMatchObject({
      ok: false,
      error_description: expect.stringMatching(/its own URL/)
    })
    expect(documentRegistration(url, { ...doc, client_secret: "s" })).toMatchObject({ ok: false })
    expect(documentRegistration(url, { ...doc, token_endpoint_auth_method: "client_secret_basic" })).toMatchObject({
      ok: false
    })
    expect(documentRegistration(url, { ...doc, redirect_uris: [] })).toMatchObject({ ok: false })
    expect(documentRegistration(url, [doc])).toMatchObject({ ok: false })
  })
})
