/**
 * A forge's webhook signature, checked on the raw body before anything is parsed or stored, in
 * constant time. GitHub: `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the body>`, checked
 * with GitHub's own `@octokit/webhooks-methods`; Gitea and Forgejo: `X-Gitea-Signature` /
 * `X-Forgejo-Signature: <hex HMAC-SHA256>`; GitLab: `X-Gitlab-Token: <the secret itself>`.
 */
import { verify } from "@octokit/webhooks-methods"
import * as crypto from "node:crypto"
import type { ForgeProvider } from "../domain/forge.ts"

export type Headers = Readonly<Record<string, string | undefined>>

/** The request's delivery id and event name, by the provider's headers. */
export const deliveryHeaders = (
  provider: ForgeProvider,
  headers: Headers
): { readonly event: string | undefined; readonly delivery: string | undefined } => {
  switch (provider) {
    case "github":
      return { event: headers["x-github-event"], delivery: headers["x-github-delivery"] }
    case "gitlab":
      return {
        event: headers["x-gitlab-event"],
        delivery: headers["x-gitlab-event-uuid"] ?? headers["x-gitlab-webhook-uuid"]
      }
    case "gitea":
    case "forgejo":
      // Forgejo also sends the X-Gitea-* headers; each is read in its own name first
      return provider === "forgejo"
        ? {
            event: headers["x-forgejo-event"] ?? headers["x-gitea-event"],
            delivery: headers["x-forgejo-delivery"] ?? headers["x-gitea-delivery"]
          }
        : { event: headers["x-gitea-event"], delivery: headers["x-gitea-delivery"] }
  }
}

// equal-length digests, so the comparison takes the same time whatever the guess
const sameSecret = (given: string, secret: string): boolean =>
  crypto.timingSafeEqual(
    crypto.createHash("sha256").update(given).digest(),
    crypto.createHash("sha256").update(secret).digest()
  )

const hmacHex = (secret: string, body: Uint8Array) => crypto.createHmac("sha256", secret).update(body).digest("hex")

const sameHex = (given: string, expected: string): boolean => {
  const a = Buffer.from(given.trim().toLowerCase())
  const b = Buffer.from(expected)
  return a.length === b.length && crypto.timingSafeEqual(a, b)
}

const utf8 = new TextDecoder("utf-8", { fatal: true })

/** Whether the request carries the connection's signature (a missing header is no signature). */
export const signatureValid = async (
  provider: ForgeProvider,
  secret: string,
  headers: Headers,
  body: Uint8Array
): Promise<boolean> => {
  switch (provider) {
    case "github": {
      const signature = headers["x-hub-signature-256"]
      if (signature === undefined || signature === "" || body.length === 0) return false
      let text: string
      try {
        // octokit signs the text; bytes that are not UTF-8 would not survive the round trip
        text = utf8.decode(body)
      } catch {
        return false
      }
      return verify(secret, text, signature).catch(() => false)
    }
    case "gitlab": {
      const token = headers["x-gitlab-token"]
      return token !== undefined && token !== "" && sameSecret(token, secret)
    }
    case "gitea":
    case "forgejo": {
      const signature =
        provider === "forgejo"
          ? (headers["x-forgejo-signature"] ?? headers["x-gitea-signature"])
          : headers["x-gitea-signature"]
      return signature !== undefined && signature !== "" && sameHex(signature, hmacHex(secret, body))
    }
  }
}
