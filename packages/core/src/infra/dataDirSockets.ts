/** The unix sockets an embedded database's owner listens on, derived from DATA_DIR. */
import * as crypto from "node:crypto"
import * as os from "node:os"
import * as path from "node:path"

/**
 * A socket path in DATA_DIR, or, when that is longer than a unix socket path may be (about 107
 * bytes), a path in the temporary directory derived from DATA_DIR.
 */
const socketIn = (dataDir: string, name: string, tag: string): string => {
  const candidate = path.join(path.resolve(dataDir), name)
  if (Buffer.byteLength(candidate) <= 100) return candidate
  const hash = crypto.createHash("sha256").update(path.resolve(dataDir)).digest("hex").slice(0, 16)
  return path.join(os.tmpdir(), `board-${hash}-${tag}.sock`)
}

/** Where PostgreSQL clients look for a server given `-h DATA_DIR`; a refusal listens there. */
export const postgresSocketPath = (dataDir: string): string => socketIn(dataDir, ".s.PGSQL.5432", "pg")

/** Where the owner of DATA_DIR takes operator commands (AdminChannel.ts). */
export const adminSocketPath = (dataDir: string): string => socketIn(dataDir, "admin.sock", "admin")
