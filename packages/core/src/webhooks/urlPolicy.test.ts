import * as http from "node:http"
import type { AddressInfo } from "node:net"
import { describe, expect, it } from "vitest"
import { fetchClientDocument } from "../oauth/clientIdDocument.ts"
import { backoffMs, postOnce } from "./Deliveries.ts"
import { openSecret, sealSecret, signatureHeader } from "./secretBox.ts"
import { addressFailure, pinHost, type Resolver, refusedAddressClass, urlShapeFailure } from "./urlPolicy.ts"

describe("the webhook address rule", () => {
  it("refuses every non-public class, in both families and the IPv4 forms inside IPv6", () => {
    const refused: Record<string, string> = {
      "127.0.0.1": "loopback",
      "127.255.0.9": "loopback",
      "10.0.0.1": "private",
      "172.16.0.1": "private",
      "172.31.255.255": "private",
      "192.168.0.1": "private",
      "169.254.169.254": "cloud metadata",
      "169.254.1.1": "link-local",
      "100.64.0.1": "shared (carrier-grade NAT)",
      "100.127.255.255": "shared (carrier-grade NAT)",
      "0.0.0.0": "unspecified (0.0.0.0/8)",
      "0.1.2.3": "unspecified (0.0.0.0/8)",
      "224.0.0.1": "multicast",
      "255.255.255.255": "reserved (240.0.0.0/4, broadcast)",
      "::": "unspecified (::)",
      "::1": "loopback",
      "fc00::1": "private (unique local)",
      "fdff:ffff::1": "private (unique local)",
      "fe80::1": "link-local",
      "fe80::1%eth0": "link-local",
      "ff02::1": "multicast",
      "::ffff:127.0.0.1": "loopback",
      "::ffff:7f00:1": "loopback",
      "::ffff:a9fe:a9fe": "cloud metadata",
      "::ffff:10.1.2.3": "private",
      "64:ff9b::10.0.0.1": "private",
      // forms that hand an embedded IPv4 to a translator or relay (issue 28)
      "::ffff:0:7f00:1": "IPv4-translated (::ffff:0:0/96)",
      "::ffff:0:8.8.8.8": "IPv4-translated (::ffff:0:0/96)",
      "64:ff9b:1::7f00:1": "local-use IPv4/IPv6 translation (64:ff9b:1::/48)",
      "64:ff9b:1:ffff::a00:1": "local-use IPv4/IPv6 translation (64:ff9b:1::/48)",
      "2002:7f00:1::1": "6to4 relay (2002::/16)",
      "2002:a9fe:a9fe::": "6to4 relay (2002::/16)",
      "2001:0:4136:e378:8000:63bf:80ff:fffe": "Teredo relay (2001::/32)",
      "2001::1": "Teredo relay (2001::/32)",
      "100::1": "discard-only (100::/64)",
      "100::ffff:7f00:1": "discard-only (100::/64)",
      "2001:db8::1": "documentation (2001:db8::/32)"
    }
    for (const [ip, kind] of Object.entries(refused)) expect(refusedAddressClass(ip), ip).toBe(kind)
    for (const ip of [
      "8.8.8.8",
      "1.1.1.1",
      "172.32.0.1",
      "172.15.255.255",
      "100.128.0.1",
      "203.0.113.7",
      "2606:4700::1111",
      "::ffff:8.8.8.8",
      "64:ff9b::8.8.8.8",
      "2001:4860:4860::8888",
      "100:0:0:1::1",
      "2003::1"
    ])
      expect(refusedAddressClass(ip), ip).toBeUndefined()
  })

  it("names why, and lifts with WEBHOOK_ALLOW_PRIVATE", () => {
    const strict = { allowHttp: false, allowPrivate: false }
    expect(addressFailure("hooks.example.test", ["203.0.113.7", "10.0.0.5"], strict)).toBe(
      "url: hooks.example.test resolves to a private address 10.0.0.5; webhooks go only to public addresses (set WEBHOOK_ALLOW_PRIVATE=true to allow it)"
    )
    expect(addressFailure("hooks.example.test", ["10.0.0.5"], { ...strict, allowPrivate: true })).toBeUndefined()
    expect(urlShapeFailure("https://[::ffff:127.0.0.1]/", strict)).toMatch(/loopback address/)
    expect(urlShapeFailure("https://[::ffff:0:7f00:1]/", strict)).toMatch(/IPv4-translated/)
    expect(urlShapeFailure("https://[2002:7f00:1::1]/", strict)).toMatch(/6to4/)
    expect(urlShapeFailure("http://example.com/", strict)).toMatch(/WEBHOOK_ALLOW_HTTP/)
    expect(urlShapeFailure("http://example.com/", { ...strict, allowHttp: true })).toBeUndefined()
    expect(urlShapeFailure("https://a:b@example.com/", strict)).toMatch(/credentials/)
    expect(urlShapeFailure("https://a@example.com/", strict)).toMatch(/credentials/)
  })
})

describe("webhook delivery arithmetic and secrets", () => {
  it("backs off by doubling from the base, ±20 %, capped at 6 h", () => {
    expect(backoffMs(30_000, 1, 0.5)).toBe(30_000)
    expect(backoffMs(30_000, 2, 0.5)).toBe(60_000)
    expect(backoffMs(30_000, 1, 0)).toBe(24_000)
    expect(backoffMs(30_000, 1, 1)).toBe(36_000)
    expect(backoffMs(30_000, 40, 0.5)).toBe(6 * 3_600_000)
    // 24 h of retries takes at least this many attempts, so none stops early
    let total = 0
    let n = 0
    while (total < 86_400_000) total += backoffMs(30_000, ++n, 1)
    expect(n).toBeGreaterThan(8)
  })

  it("seals a secret to its webhook and signs as Stripe does", () => {
    const key = new Uint8Array(32).fill(7)
    const box = sealSecret(key, "hook-1", "whsec_abc")
    expect(box).not.toContain("whsec_abc")
    expect(openSecret(key, "hook-1", box)).toBe("whsec_abc")
    expect(openSecret(key, "hook-2", box)).toBeUndefined()
    expect(openSecret(new Uint8Array(32).fill(8), "hook-1", box)).toBeUndefined()
    expect(signatureHeader("whsec_abc", 1700000000, "{}")).toMatch(/^t=1700000000,v1=[0-9a-f]{64}$/)
  })
})

describe("pinHost: one resolution, every address checked, the connection to the checked one", () => {
  const strict = { allowHttp: true, allowPrivate: false }
  const answering = (table: Record<string, ReadonlyArray<string>>): Resolver & { asked: Array<string> } => {
    const asked: Array<string> = []
    return {
      asked,
      lookup: async (host) => {
        asked.push(host)
        const found = table[host]
        if (found === undefined) throw Object.assign(new Error("not found"), { code: "ENOTFOUND" })
        return found.map((address) => ({ address, family: address.includes(":") ? (6 as const) : (4 as const) }))
      }
    }
  }

  it("refuses a name with any refused address, and says when a name does not resolve", async () => {
    const resolver = answering({ "mixed.example": ["93.184.216.34", "10.0.0.1"], "empty.example": [] })
    const mixed = await pinHost(new URL("https://mixed.example/hook"), strict, resolver)
    expect(mixed).toEqual({
      ok: false,
      refused: true,
      error: expect.stringMatching(/resolves to a private address 10\.0\.0\.1/)
    })
    expect(await pinHost(new URL("https://nowhere.example/"), strict, resolver)).toEqual({
      ok: false,
      refused: false,
      error: "could not resolve nowhere.example (ENOTFOUND)"
    })
    expect(await pinHost(new URL("https://empty.example/"), strict, resolver)).toEqual({
      ok: false,
      refused: false,
      error: "could not resolve empty.example (no address)"
    })
    // an address literal is not resolved (its class is urlShapeFailure's)
    expect(await pinHost(new URL("https://[2606:4700::1]/"), strict, resolver)).toEqual({ ok: true, lookup: undefined })
    expect(resolver.asked).toEqual(["mixed.example", "nowhere.example", "empty.example"])
  })

  it("answers the checked address for the name in both lookup forms, without asking the resolver again", async () => {
    const resolver = answering({ "two.example": ["93.184.216.34", "2606:2800:220:1::1"] })
    const pin = await pinHost(new URL("https://two.example/"), strict, resolver)
    if (!pin.ok || pin.lookup === undefined) throw new Error(`expected a pinned lookup: ${JSON.stringify(pin)}`)
    const one = await new Promise<Array<unknown>>((resolve) =>
      pin.lookup!("elsewhere.example", {}, (...args: Array<unknown>) => resolve(args))
    )
    expect(one).toEqual([null, "93.184.216.34", 4])
    const all = await new Promise<Array<unknown>>((resolve) =>
      pin.lookup!("elsewhere.example", { all: true }, (...args: Array<unknown>) => resolve(args))
    )
    expect(all).toEqual([null, [{ address: "93.184.216.34", family: 4 }]])
    expect(resolver.asked).toEqual(["two.example"])
  })

  it("connects to the checked address, not to what the system would resolve the name to, Host kept", async () => {
    const server = http.createServer((req, res) => res.end(req.headers.host))
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    const port = (server.address() as AddressInfo).port
    try {
      // the resolver answers once; the request itself never asks the system (the name does not exist)
      const resolver = answering({ "pinned.invalid": ["127.0.0.1"] })
      const pin = await pinHost(new URL(`http://pinned.invalid:${port}/`), { ...strict, allowPrivate: true }, resolver)
      if (!pin.ok || pin.lookup === undefined) throw new Error(`expected a pinned lookup: ${JSON.stringify(pin)}`)
      const host = await new Promise<string>((resolve, reject) =>
        http
          .get(`http://pinned.invalid:${port}/`, { agent: false, lookup: pin.lookup }, (res) => {
            let body = ""
            res.on("data", (c) => {
              body += c
            })
            res.on("end", () => resolve(body))
          })
          .on("error", reject)
      )
      expect(host).toBe(`pinned.invalid:${port}`)
      expect(resolver.asked).toEqual(["pinned.invalid"])
    } finally {
      server.close()
    }
  })

  it("a connection the kernel refuses at once fails its request, not the process", async () => {
    // TCP to a multicast address: the kernel answers ENETUNREACH before sending anything
    const multicast: Resolver = { lookup: async () => [{ address: "224.0.0.1", family: 4 }] }
    const delivery = await postOnce(
      { url: "https://hooks.example.test/hook", body: "{}", headers: {} },
      { allowHttp: false, allowPrivate: true, timeoutMs: 5_000 },
      multicast
    )
    expect(delivery).toEqual({ statusCode: null, error: "could not deliver: ENETUNREACH" })
    expect(
      await fetchClientDocument("https://client.example.test/app.json", { allowPrivate: true }, multicast)
    ).toEqual({
      ok: false,
      error: "could not fetch it: ENETUNREACH"
    })
  })
})
