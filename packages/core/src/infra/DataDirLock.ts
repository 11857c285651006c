/**
 * One process owns an embedded database directory: PGlite has no lock of its own and two
 * processes on one directory corrupt it. The lock file also tells other commands (migrate,
 * desktop publish) which socket reaches the owner's database.
 */
import * as fs from "node:fs"
import * as path from "node:path"

export interface LockInfo {
  readonly pid: number
  readonly socket: string
  readonly startedAt: string
}

export const lockPath = (dataDir: string) => path.join(dataDir, "board.lock")

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM"
  }
}

/** The live owner of `dataDir`, if any (a lock left by a killed process does not count). */
export const readLiveLock = (dataDir: string): LockInfo | undefined => {
  let info: LockInfo
  try {
    info = JSON.parse(fs.readFileSync(lockPath(dataDir), "utf8")) as LockInfo
  } catch {
    return undefined
  }
  return typeof info.pid === "number" && info.pid !== process.pid && alive(info.pid) ? info : undefined
}

export class DataDirLocked extends Error {
  readonly owner: LockInfo
  constructor(dataDir: string, owner: LockInfo) {
    super(
      `DATA_DIR ${dataDir} is in use by another board process (pid ${owner.pid}); stop it or choose another DATA_DIR`
    )
    this.owner = owner
  }
}

/**
 * `mkdir -p`, one level at a time. Node's `mkdirSync(…, { recursive: true })` never returns for
 * a path under /proc (ENOENT for the child, the parent exists, retry…): `DATA_DIR=/proc/nope`
 * spun at 100% CPU with no output. Here each level is tried once, so it fails at once.
 */
const makeDirectory = (dir: string): void => {
  try {
    fs.mkdirSync(dir, { mode: 0o700 })
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    if (code === "EEXIST") {
      if (!fs.statSync(dir).isDirectory()) throw e
      return
    }
    const parent = path.dirname(dir)
    if (code !== "ENOENT" || parent === dir) throw e
    makeDirectory(parent)
    fs.mkdirSync(dir, { mode: 0o700 })
  }
}

/**
 * Creates DATA_DIR when missing, readable by this user only (it holds the database and the
 * secret); an unusable path is an error naming DATA_DIR.
 */
export const ensureDataDir = (dataDir: string): void => {
  try {
    makeDirectory(path.resolve(dataDir))
  } catch (e) {
    throw new Error(`DATA_DIR: cannot use ${dataDir} as the data directory (${(e as Error).message})`)
  }
}

/** Takes the lock or throws `DataDirLocked`; returns the release function. */
export const acquireDataDirLock = (dataDir: string, socket: string): (() => void) => {
  ensureDataDir(dataDir)
  const file = lockPath(dataDir)
  const info: LockInfo = { pid: process.pid, socket, startedAt: new Date().toISOString() }
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      fs.writeFileSync(file, JSON.stringify(info), { flag: "wx", mode: 0o600 })
      return () => {
        try {
          const current = JSON.parse(fs.readFileSync(file, "utf8")) as LockInfo
          if (current.pid === process.pid) fs.unlinkSync(file)
        } catch {
          // already gone
        }
      }
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e
      const owner = readLiveLock(dataDir)
      if (owner !== undefined) throw new DataDirLocked(dataDir, owner)
      // stale lock from a killed process: remove and retry
      try {
        fs.unlinkSync(file)
      } catch {
        // raced with another starter; retry decides
      }
    }
  }
  const owner = readLiveLock(dataDir)
  throw new DataDirLocked(dataDir, owner ?? { pid: -1, socket: "", startedAt: "" })
}
