/**
 * Webhook signing secrets at rest. A receiver verifies an HMAC keyed with the raw secret, so the
 * service must be able to recompute it: a one-way digest (as for API keys) cannot sign. The secret
 * is stored sealed with AES-256-GCM under a key derived from the server SECRET (infra/Secret.ts),
 * bound to its webhook's id (additional data), so a database dump alone reveals no secret and a
 * sealed secret copied onto another webhook does not open. Changing SECRET makes the stored
 * secrets unreadable: such webhooks fail their deliveries until re-created.
 */
import * as crypto from "node:crypto"

const VERSION = "v1"

export const sealSecret = (key: Uint8Array, webhookId: string, secret: string): string => {
  const iv = crypto.randomBytes(12)
  const cipher = crypto.createCipheriv("aes-256-gcm", key, iv)
  cipher.setAAD(Buffer.from(webhookId, "utf8"))
  const sealed = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()])
  return [
    VERSION,
    iv.toString("base64url"),
    sealed.toString("base64url"),
    cipher.getAuthTag().toString("base64url")
  ].join(".")
}

/** The raw secret, or undefined when the box does not open (another SECRET, or tampered). */
export const openSecret = (key: Uint8Array, webhookId: string, box: string): string | undefined => {
  const [version, iv, sealed, tag] = box.split(".")
  if (version !== VERSION || iv === undefined || sealed === undefined || tag === undefined) return undefined
  try {
    const decipher = crypto.createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"))
    decipher.setAAD(Buffer.from(webhookId, "utf8"))
    decipher.setAuthTag(Buffer.from(tag, "base64url"))
    return Buffer.concat([decipher.update(Buffer.from(sealed, "base64url")), decipher.final()]).toString("utf8")
  } catch {
    return undefined
  }
}

/** A new signing secret: `whsec_` and 32 random bytes (base64url). */
export const mintWebhookSecret = (): string => `whsec_${crypto.randomBytes(32).toString("base64url")}`

/** Stripe's scheme: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`. */
export const signatureHeader = (secret: string, unixSeconds: number, body: string): string =>
  `t=${unixSeconds},v1=${crypto.createHmac("sha256", secret).update(`${unixSeconds}.${body}`).digest("hex")}`
