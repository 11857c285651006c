/**
 * Raw secrets in text: every credential the service mints (API keys, OAuth access and refresh
 * tokens, intake tokens, authorization codes — recognised by their checksum, so random text that
 * merely looks similar is not reported), session JWTs, and the password the test accounts use.
 * The test server runs this over its log lines and a dump of its database when it stops, so every
 * suite proves that nothing it made a server do leaked a secret (issue 9, part 6).
 */
import { isWellFormed, tokenKindOf } from "@board/core"
import { SUITE_PASSWORD } from "./client.ts"

const TOKEN = /svc_(?:at_|rt_|in_|ac_|ws_|inv_|pr_)?[0-9A-Za-z]{36}(?![0-9A-Za-z])/g
const JWT = /eyJ[0-9A-Za-z_-]{8,}\.eyJ[0-9A-Za-z_-]{8,}\.[0-9A-Za-z_-]{20,}/g

export const findSecrets = (text: string): Array<string> => {
  const found = new Set<string>()
  for (const m of text.matchAll(TOKEN)) {
    const kind = tokenKindOf(m[0])
    if (kind !== undefined && isWellFormed(kind, m[0])) found.add(m[0])
  }
  for (const m of text.matchAll(JWT)) found.add(m[0])
  if (text.includes(SUITE_PASSWORD)) found.add(SUITE_PASSWORD)
  return [...found]
}

/** Which lines hold a secret, shortened for a failure message. */
export const linesWithSecrets = (lines: ReadonlyArray<string>): Array<string> =>
  lines.filter((l) => findSecrets(l).length > 0).map((l) => l.slice(0, 300))
