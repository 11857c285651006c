/**
 * The file `board backup` writes and `board restore` reads: everything a deployment needs back,
 * in one tar archive (node-tar; uncompressed on the outside, since the database dump is gzip
 * already and desktop builds are compressed binaries):
 *
 *   board-backup.json        what this is: { format, version, database, createdAt }
 *   database/pgdata.tar.gz   the embedded database: PGlite's own dump of its data directory
 *   database/dump.pgcustom   PostgreSQL: `pg_dump --format=custom`
 *   secret                   the generated secret, when DATA_DIR holds it (sessions stay valid)
 *   files/…                  desktop builds kept in DATA_DIR/files
 */
import * as fs from "node:fs"
import * as path from "node:path"

export type BackupDatabase = "embedded" | "postgres"

export interface BackupManifest {
  readonly format: "board-backup"
  readonly version: 1
  readonly database: BackupDatabase
  readonly createdAt: string
}

export const MANIFEST = "board-backup.json"
export const databaseEntry = (kind: BackupDatabase): string =>
  kind === "embedded" ? "database/pgdata.tar.gz" : "database/dump.pgcustom"

/**
 * Writes the archive to `file` (mode 0600: it holds password hashes and the secret), through a
 * temporary name renamed at the end, so an interrupted backup never leaves a file that looks whole.
 */
export const writeBackup = async (options: {
  readonly file: string
  readonly database: BackupDatabase
  /** The database dump, already written. */
  readonly dump: string
  /** DATA_DIR, when its `secret` and `files/` belong in the backup. */
  readonly dataDir: string | undefined
  readonly createdAt: string
}): Promise<{ readonly bytes: number; readonly entries: ReadonlyArray<string> }> => {
  const tar = await import("tar")
  const staging = fs.mkdtempSync(path.join(path.dirname(path.resolve(options.file)), ".board-backup-"))
  const partial = path.join(staging, "archive.tar")
  try {
    const manifest: BackupManifest = {
      format: "board-backup",
      version: 1,
      database: options.database,
      createdAt: options.createdAt
    }
    fs.writeFileSync(path.join(staging, MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`)
    fs.mkdirSync(path.join(staging, "database"))
    fs.renameSync(options.dump, path.join(staging, databaseEntry(options.database)))
    await tar.create({ file: partial, cwd: staging, portable: true }, [MANIFEST, databaseEntry(options.database)])
    const entries = [MANIFEST, databaseEntry(options.database)]
    if (options.dataDir !== undefined) {
      const extra = ["secret", "files"].filter((name) => fs.existsSync(path.join(options.dataDir!, name)))
      if (extra.length > 0) await tar.replace({ file: partial, cwd: options.dataDir, portable: true }, extra)
      entries.push(...extra)
    }
    fs.chmodSync(partial, 0o600)
    fs.renameSync(partial, options.file)
    return { bytes: fs.statSync(options.file).size, entries }
  } finally {
    fs.rmSync(staging, { recursive: true, force: true })
  }
}

/** Unpacks a backup into `into` (an empty directory) and returns its manifest; throws on anything else. */
export const readBackup = async (file: string, into: string): Promise<BackupManifest> => {
  const tar = await import("tar")
  try {
    // files and folders only: a link in a crafted archive would make the restore write (or
    // chmod) wherever it points
    await tar.extract({
      file,
      cwd: into,
      strict: true,
      filter: (_path, entry) => "type" in entry && (entry.type === "File" || entry.type === "Directory")
    })
  } catch (e) {
    throw new Error(`${file} is not a board backup (${(e as Error).message})`)
  }
  let manifest: BackupManifest
  try {
    manifest = JSON.parse(fs.readFileSync(path.join(into, MANIFEST), "utf8")) as BackupManifest
  } catch {
    throw new Error(`${file} is not a board backup (no ${MANIFEST} in it)`)
  }
  if (manifest.format !== "board-backup" || manifest.version !== 1) {
    throw new Error(
      `${file} is a backup of a format this version does not read (${JSON.stringify(manifest.format)} ${manifest.version})`
    )
  }
  if (!fs.existsSync(path.join(into, databaseEntry(manifest.database)))) {
    throw new Error(`${file} is incomplete: it has no ${databaseEntry(manifest.database)}`)
  }
  return manifest
}
