/**
 * Which URLs a webhook may be delivered to (no server-side request forgery): `https` (and `http`
 * with WEBHOOK_ALLOW_HTTP), no credentials in the URL, and a host that is, or resolves to, only
 * public addresses (WEBHOOK_ALLOW_PRIVATE lifts that for tests and intranets). Checked at
 * creation and again at every delivery, after resolving the name, and the delivery then
 * connects to the very address checked (`pinHost`, below), so a name that re-resolves elsewhere
 * (DNS rebinding) cannot reach a refused address. Client metadata documents are fetched under
 * the same rules (oauth/clientIdDocument.ts).
 */
import { Context } from "effect"
import * as dns from "node:dns"
import * as net from "node:net"

export interface ResolvedAddress {
  readonly address: string
  readonly family: 4 | 6
}

/** Resolves a host name to every address it has. */
export interface Resolver {
  readonly lookup: (hostname: string) => Promise<ReadonlyArray<ResolvedAddress>>
}

/**
 * Name resolution for webhook hosts and client metadata documents: the system resolver by
 * default; tests stub it to answer refused addresses for public-looking names without any
 * lookup leaving the machine.
 */
export const WebhookResolver = Context.Reference<Resolver>("board/core/WebhookResolver", {
  defaultValue: () => ({
    lookup: async (hostname) =>
      (await dns.promises.lookup(hostname, { all: true, verbatim: true })).map((a) => ({
        address: a.address,
        family: a.family === 6 ? 6 : 4
      }))
  })
})

export interface UrlSettings {
  readonly allowHttp: boolean
  readonly allowPrivate: boolean
}

const ALLOW_PRIVATE = "set WEBHOOK_ALLOW_PRIVATE=true to allow it"

// [first address, prefix length, what it is], checked in order
const v4Ranges: ReadonlyArray<readonly [string, number, string]> = [
  ["169.254.169.254", 32, "cloud metadata"],
  ["0.0.0.0", 8, "unspecified (0.0.0.0/8)"],
  ["127.0.0.0", 8, "loopback"],
  ["10.0.0.0", 8, "private"],
  ["172.16.0.0", 12, "private"],
  ["192.168.0.0", 16, "private"],
  ["169.254.0.0", 16, "link-local"],
  ["100.64.0.0", 10, "shared (carrier-grade NAT)"],
  ["192.0.0.0", 24, "reserved (IETF protocol assignments)"],
  ["198.18.0.0", 15, "reserved (benchmarking)"],
  ["224.0.0.0", 4, "multicast"],
  ["240.0.0.0", 4, "reserved (240.0.0.0/4, broadcast)"]
]

const v4Number = (ip: string): number => ip.split(".").reduce((n, part) => n * 256 + Number(part), 0)

const v4Class = (ip: string): string | undefined => {
  const n = v4Number(ip)
  for (const [base, bits, what] of v4Ranges) {
    const size = 2 ** (32 - bits)
    const start = v4Number(base)
    if (n >= start && n < start + size) return what
  }
  return undefined
}

/** An IPv6 address as 8 groups of 16 bits (an embedded dotted IPv4 tail becomes two groups). */
const v6Groups = (ip: string): Array<number> => {
  let text = ip.toLowerCase().replace(/%.*$/, "")
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)
  if (dotted !== null) {
    const n = v4Number(dotted[1]!)
    text = `${text.slice(0, -dotted[1]!.length)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`
  }
  const [head, tail] = text.includes("::") ? text.split("::") : [text, undefined]
  const parse = (s: string | undefined) => (s === undefined || s === "" ? [] : s.split(":").map((g) => parseInt(g, 16)))
  const h = parse(head)
  const t = parse(tail)
  return tail === undefined ? h : [...h, ...new Array<number>(8 - h.length - t.length).fill(0), ...t]
}

const v6Class = (ip: string): string | undefined => {
  const g = v6Groups(ip)
  const zeroUpTo = (k: number) => g.slice(0, k).every((x) => x === 0)
  if (zeroUpTo(8)) return "unspecified (::)"
  if (zeroUpTo(7) && g[7] === 1) return "loopback"
  // Forms that carry an IPv4 address to a translator or relay, which would then reach that IPv4
  // (a private or loopback one among them). Refused whole: none is a public host of its own, and
  // reading the IPv4 out of each (6to4's sits at bits 16-47, Teredo's is obfuscated) is a rule
  // per form where one refusal is simpler and safe.
  if (zeroUpTo(4) && g[4] === 0xffff && g[5] === 0) return "IPv4-translated (::ffff:0:0/96)"
  if (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 1) return "local-use IPv4/IPv6 translation (64:ff9b:1::/48)"
  if (g[0] === 0x2002) return "6to4 relay (2002::/16)"
  if (g[0] === 0x2001 && g[1] === 0) return "Teredo relay (2001::/32)"
  if (g[0] === 0x0100 && g.slice(1, 4).every((x) => x === 0)) return "discard-only (100::/64)"
  if (g[0] === 0x2001 && g[1] === 0x0db8) return "documentation (2001:db8::/32)"
  // IPv4-mapped (::ffff:a.b.c.d), and the deprecated IPv4-compatible and NAT64 forms: the IPv4 inside decides
  if (
    (zeroUpTo(5) && g[5] === 0xffff) ||
    zeroUpTo(6) ||
    (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0))
  ) {
    const v4 = `${g[6]! >> 8}.${g[6]! & 255}.${g[7]! >> 8}.${g[7]! & 255}`
    return v4Class(v4)
  }
  if ((g[0]! & 0xfe00) === 0xfc00) return "private (unique local)"
  if ((g[0]! & 0xffc0) === 0xfe80) return "link-local"
  if ((g[0]! & 0xffc0) === 0xfec0) return "private (site-local)"
  if ((g[0]! & 0xff00) === 0xff00) return "multicast"
  return undefined
}

/** What kind of non-public address `ip` is ("loopback", "private", …), or undefined for a public one. */
export const refusedAddressClass = (ip: string): string | undefined => {
  const kind = net.isIP(ip)
  return kind === 4 ? v4Class(ip) : kind === 6 ? v6Class(ip) : "unparseable"
}

/** The URL's host as a name or a bare IP (brackets of an IPv6 literal removed). */
export const hostOf = (url: URL): string => url.hostname.replace(/^\[(.*)\]$/, "$1")

/** Why a URL may not be a webhook's, before any name is resolved; or undefined. */
export const urlShapeFailure = (text: string, settings: UrlSettings): string | undefined => {
  let url: URL
  try {
    url = new URL(text)
  } catch {
    return "url: not a valid absolute URL (e.g. https://example.com/hooks/board)"
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && settings.allowHttp))
    return url.protocol === "http:"
      ? "url: must be https (set WEBHOOK_ALLOW_HTTP=true on the server to allow http)"
      : `url: must be https, not ${url.protocol.replace(/:$/, "")}`
  if (url.username !== "" || url.password !== "")
    return "url: must not contain credentials (user:password@); authenticate the request with the signature instead"
  if (hostOf(url) === "") return "url: has no host"
  return addressFailure(hostOf(url), [hostOf(url)], settings, true)
}

/**
 * Why the addresses a host resolved to may not be delivered to, or undefined. Every address
 * must be allowed: a name that answers one public and one private address is refused.
 */
export const addressFailure = (
  host: string,
  addresses: ReadonlyArray<string>,
  settings: UrlSettings,
  literal = false
): string | undefined => {
  if (settings.allowPrivate) return undefined
  for (const address of addresses) {
    if (net.isIP(address) === 0) continue // a name: resolved later
    const kind = refusedAddressClass(address)
    if (kind !== undefined)
      return literal
        ? `url: ${address} is a ${kind} address; webhooks go only to public addresses (${ALLOW_PRIVATE})`
        : `url: ${host} resolves to a ${kind} address ${address}; webhooks go only to public addresses (${ALLOW_PRIVATE})`
  }
  return undefined
}

/** Where a request may connect (`pinHost`), or why it may not. */
export type PinnedHost =
  | {
      readonly ok: true
      /** For http(s).request: the checked address for any name (none for an IP literal, checked with the URL's shape). */
      readonly lookup: net.LookupFunction | undefined
    }
  | {
      readonly ok: false
      /** True: the address rules refuse the host (`url: …`); false: it could not be resolved. */
      readonly refused: boolean
      readonly error: string
    }

/**
 * Resolves `url`'s host once and checks every address it answers; the request is then made
 * with the returned `lookup` (and a connection of its own: a pooled one could have been opened
 * to another address), so it connects to the very address checked while the Host header and
 * the TLS server name stay the URL's. A name that re-resolves elsewhere between the check and
 * the connection (DNS rebinding) reaches nothing it was refused. The URL's shape (scheme,
 * credentials, an IP literal's class) is `urlShapeFailure`'s, checked before this.
 */
export const pinHost = async (url: URL, settings: UrlSettings, resolver: Resolver): Promise<PinnedHost> => {
  const host = hostOf(url)
  if (net.isIP(host) !== 0) return { ok: true, lookup: undefined }
  let addresses: ReadonlyArray<ResolvedAddress>
  try {
    addresses = await resolver.lookup(host)
  } catch (e) {
    return { ok: false, refused: false, error: `could not resolve ${host} (${(e as NodeJS.ErrnoException).code ?? e})` }
  }
  if (addresses.length === 0) return { ok: false, refused: false, error: `could not resolve ${host} (no address)` }
  const bad = addressFailure(
    host,
    addresses.map((a) => a.address),
    settings
  )
  if (bad !== undefined) return { ok: false, refused: true, error: bad }
  const chosen = addresses[0]!
  // answered on a later turn, as a real lookup is: answered at once, a connection the kernel
  // refuses at once (ENETUNREACH: an IPv6 address on a host without an IPv6 route) failed
  // inside http.request, before the request had its socket's error listener, and the error
  // was uncaught: it ended the process
  const lookup: net.LookupFunction = (_hostname, options, callback) =>
    setImmediate(() => {
      if ((options as { all?: boolean }).all === true)
        (callback as unknown as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [
          { address: chosen.address, family: chosen.family }
        ])
      else callback(null, chosen.address, chosen.family)
    })
  return { ok: true, lookup }
}
