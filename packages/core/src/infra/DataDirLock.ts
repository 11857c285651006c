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
  /**
   * The owner's start time as the kernel counts it (field 22 of /proc/<pid>/stat, Linux only):
   * with the pid it names one process for the machine's uptime, so a pid the kernel has since
   * given to another process is not mistaken for the owner.
   */
  readonly processStart?: string
}

export const lockPath = (dataDir: string) => path.join(dataDir, "board.lock")

/** The kernel's flag on a task that has begun to exit (include/linux/sched.h); it never runs user code again. */
const PF_EXITING = 0x4

interface ProcStat {
  readonly state: string
  readonly flags: number
  readonly start: string
}

/** State, flags and start time of a process from /proc (Linux); undefined where there is no /proc. */
const procStat = (pid: number): ProcStat | undefined => {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8")
    // the command name may hold spaces and parentheses: the fields resume after the last ")"
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    // fields[0] is field 3 (state): field 9 (flags) is fields[6], field 22 (starttime) fields[19]
    return { state: fields[0]!, flags: Number(fields[6]), start: fields[19]! }
  } catch {
    return undefined
  }
}

/** This process's identity for the lock file (undefined where there is no /proc). */
const ownStart = (): string | undefined => procStat(process.pid)?.start

/**
 * Whether the lock's owner still runs. A signal 0 alone is not enough: after a SIGKILL the
 * kernel spends a while tearing down the server's memory (0.2 s idle, more under load) and then
 * keeps it as a zombie until its parent reaps it, and throughout it answers signal 0: a restart
 * 0.4 s after a SIGKILL was refused. A process that is exiting or a zombie runs no code again, so
 * it owns nothing. And a pid may since belong to another process: the start time tells them apart.
 */
const alive = (owner: LockInfo): boolean => {
  try {
    process.kill(owner.pid, 0)
  } catch (e) {
    // EPERM: it exists but belongs to another user
    if ((e as NodeJS.ErrnoException).code !== "EPERM") return false
  }
  const stat = procStat(owner.pid)
  // no /proc (not Linux, or another user's process under hidepid): the signal's answer stands
  if (stat === undefined) return true
  if (stat.state === "Z" || stat.state === "X" || (stat.flags & PF_EXITING) !== 0) return false
  return owner.processStart === undefined || owner.processStart === stat.start
}

/** The live owner of `dataDir`, if any (a lock left by a killed process does not count). */
export const readLiveLock = (dataDir: string): LockInfo | undefined => {
  let info: LockInfo
  try {
    info = JSON.parse(fs.readFileSync(lockPath(dataDir), "utf8")) as LockInfo
  } catch {
    return undefined
  }
  return typeof info.pid === "number" && info.pid !== process.pid && alive(info) ? info : undefined
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
  const processStart = ownStart()
  const info: LockInfo = {
    pid: process.pid,
    socket,
    startedAt: new Date().toISOString(),
    ...(processStart === undefined ? {} : { processStart })
  }
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
