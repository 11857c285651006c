/**
 * The server secret: SECRET when set, otherwise generated once into DATA_DIR (or per process
 * for `memory:`). Purpose keys are derived with HKDF so a session key never doubles as a
 * download-link key.
 */
import { Context } from "effect"
import * as crypto from "node:crypto"
import * as fs from "node:fs"
import { ensureDataDir } from "./DataDirLock.ts"
import * as path from "node:path"

export interface SecretKeys {
  readonly session: Uint8Array
  readonly downloads: Uint8Array
  readonly csrf: Uint8Array
  /** Binds the web board's CSRF token to its session (auth/WebSessions.ts). */
  readonly webCsrf: Uint8Array
  /** Encrypts webhook signing secrets at rest (the server must sign with the raw secret). */
  readonly webhooks: Uint8Array
}

export class ServerSecret extends Context.Service<ServerSecret, SecretKeys>()("board/core/ServerSecret") {}

const derive = (secret: string, purpose: string) =>
  new Uint8Array(crypto.hkdfSync("sha256", Buffer.from(secret, "utf8"), Buffer.alloc(0), `board:${purpose}`, 32))

export const deriveKeys = (secret: string): SecretKeys => ({
  session: derive(secret, "session-jwt"),
  downloads: derive(secret, "download-url"),
  csrf: derive(secret, "oauth-csrf"),
  webCsrf: derive(secret, "web-csrf"),
  webhooks: derive(secret, "webhook-secrets")
})

/** Reads or creates `DATA_DIR/secret` (mode 0600). */
export const resolveSecret = (configured: string | undefined, dataDir: string): string => {
  if (configured !== undefined) return configured
  if (dataDir === "memory:") return crypto.randomBytes(32).toString("hex")
  ensureDataDir(dataDir)
  const file = path.join(dataDir, "secret")
  try {
    fs.writeFileSync(file, crypto.randomBytes(32).toString("hex"), { flag: "wx", mode: 0o600 })
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e
  }
  const secret = fs.readFileSync(file, "utf8").trim()
  if (Buffer.byteLength(secret) < 32)
    throw new Error(`${file}: the stored secret is shorter than 32 bytes; delete it to regenerate`)
  return secret
}
