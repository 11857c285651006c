/**
 * Which database and file store an operator command (`board migrate`, `board desktop publish`,
 * `board backup`, `board restore`) works on, decided before anything is opened. The rule: an
 * operator command never creates a data directory. Run from the wrong folder, it would otherwise
 * make an empty `./.board-data`, succeed there, and leave the server's data untouched.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { type AppConfigValues, maskUrlPassword } from "../Config.ts"
import { type LockInfo, readLiveLock } from "./DataDirLock.ts"

export type OperatorTarget =
  /** DATABASE_URL: PostgreSQL serves every client itself. */
  | { readonly kind: "postgres"; readonly database: string }
  /** The embedded database, owned by a running server: the work goes through its admin channel. */
  | { readonly kind: "server"; readonly database: string; readonly owner: LockInfo }
  /** The embedded database with no server on it: the command opens it (and holds its lock). */
  | { readonly kind: "embedded"; readonly database: string }

/** A command that must not run; the message names what was looked for and what to set. */
export class OperatorRefused extends Error {
  readonly _tag = "OperatorRefused"
}

/** Where an embedded database keeps its files (PGlite's data directory). */
export const embeddedDatabaseDir = (dataDir: string): string => path.join(path.resolve(dataDir), "pgdata")

const hasEmbeddedDatabase = (dataDir: string): boolean => {
  try {
    return fs.statSync(embeddedDatabaseDir(dataDir)).isDirectory()
  } catch {
    return false
  }
}

/** Throws OperatorRefused when the command has no existing database to work on. */
export const operatorTarget = (config: AppConfigValues, command: string): OperatorTarget => {
  if (config.databaseUrl !== undefined) {
    return { kind: "postgres", database: `PostgreSQL at ${maskUrlPassword(config.databaseUrl)} (DATABASE_URL)` }
  }
  if (config.dataDir === "memory:") {
    throw new OperatorRefused(
      `${command}: DATA_DIR=memory: keeps nothing between processes; set DATA_DIR to the server's data directory, or DATABASE_URL`
    )
  }
  const dir = path.resolve(config.dataDir)
  if (!hasEmbeddedDatabase(config.dataDir)) {
    throw new OperatorRefused(
      `${command}: no embedded database in ${dir} (DATA_DIR; its default ./.board-data is relative to where you run the command); ` +
        "set DATA_DIR to the server's data directory (or DATABASE_URL to its PostgreSQL); nothing was created"
    )
  }
  const owner = readLiveLock(config.dataDir)
  return owner !== undefined && owner.socket !== ""
    ? { kind: "server", database: `embedded in ${dir}, through the running server (pid ${owner.pid})`, owner }
    : { kind: "embedded", database: `embedded in ${dir} (no server is running on it)` }
}

/** Where desktop builds are stored for this configuration. */
export const describeFiles = (config: AppConfigValues): string =>
  config.s3 !== undefined
    ? `S3 bucket ${config.s3.bucket}${config.s3.endpoint === undefined ? "" : ` at ${config.s3.endpoint}`}`
    : config.dataDir === "memory:"
      ? "a temporary folder (DATA_DIR=memory:)"
      : path.join(path.resolve(config.dataDir), "files")
