/**
 * What every static file the server sends (the web app's assets, the API reference's bundle)
 * shares: which precompressed form to send, and whether a conditional request already holds it.
 */

export type Encoding = "br" | "gzip"

/**
 * The encoding to send for an Accept-Encoding header (RFC 9110 §12.5.3): brotli, then gzip,
 * each only with a non-zero q (directly or through `*`); otherwise none (the bytes as they are).
 */
export const chooseEncoding = (header: string | undefined): Encoding | undefined => {
  if (header === undefined) return undefined
  const q = new Map<string, number>()
  for (const part of header.split(",")) {
    const [coding, ...params] = part.trim().toLowerCase().split(";")
    if (coding === undefined || coding === "") continue
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith("q="))
    const value = qParam === undefined ? 1 : Number(qParam.slice(2))
    q.set(coding.trim(), Number.isFinite(value) ? value : 0)
  }
  const accepts = (coding: string) => (q.get(coding) ?? q.get("*") ?? 0) > 0
  if (accepts("br")) return "br"
  if (accepts("gzip") || accepts("x-gzip")) return "gzip"
  return undefined
}

/** The entity tag of one encoding of a file whose plain bytes have tag `etag` (`"…"`). */
export const encodedEtag = (etag: string, encoding: Encoding | undefined): string =>
  encoding === undefined ? etag : `${etag.slice(0, -1)}-${encoding}"`

/**
 * True when If-None-Match names this content (weak comparison, RFC 9110 §13.1.2). The
 * representations differ only in their encoding, so any of their tags names it.
 */
export const ifNoneMatchNames = (ifNoneMatch: string | undefined, etag: string): boolean =>
  (ifNoneMatch?.split(",") ?? []).some((tag) => {
    const t = tag.trim().replace(/^W\//, "")
    return t === "*" || t.replace(/-(br|gzip)"$/, '"') === etag
  })
