/**
 * The first start of an embedded database runs PostgreSQL's initdb, in PGlite's own WebAssembly
 * module: its heap grows to hundreds of MiB and a WebAssembly memory never shrinks, so a server
 * that ran initdb itself kept that memory for as long as it ran (an embedded server idle at
 * 656-744 MiB after a first start, about 300 MiB after a restart on the same directory: issue 35).
 * Here initdb runs in a worker thread that opens the new directory once and closes it: when the
 * thread ends its isolate, and every WebAssembly memory in it, is freed, and the server then opens
 * the directory as it would after a restart.
 *
 * The database is made in `pgdata.creating` beside `pgdata` and renamed into place once it is
 * whole, so a start killed halfway leaves no directory that looks like a database; the next start
 * (holding the DATA_DIR lock, as this one does) removes the leftover and begins again. A `pgdata`
 * that holds anything but no `PG_VERSION` is no leftover of this (at most an empty directory is):
 * it is refused, never removed, so a damaged database is not replaced by an empty one.
 */
import * as fs from "node:fs"
import { createRequire } from "node:module"
import * as path from "node:path"
import { pathToFileURL } from "node:url"
import { Worker } from "node:worker_threads"

/** Whether `pgdataDir` holds a database: it exists only once initdb finished (see above). */
export const hasDatabase = (pgdataDir: string): boolean => fs.existsSync(path.join(pgdataDir, "PG_VERSION"))

// the worker's whole program: create the database in the directory, close it, report
const workerSource = `
import { workerData, parentPort } from "node:worker_threads"
const { PGlite } = await import(workerData.pglite)
const { pg_trgm } = await import(workerData.trgm)
const db = await PGlite.create(workerData.dir, { extensions: { pg_trgm }, startParams: workerData.startParams })
await db.close()
parentPort.postMessage("done")
`

/**
 * A module's URL for the worker, which is loaded from a data: URL and so resolves nothing itself:
 * Node's own resolution from this module (the bundle in dist/, or the sources), or, where
 * `import.meta.resolve` is missing (vitest's module runner, which the test suite's set-up runs in),
 * the package's CommonJS entry.
 */
const moduleUrl = (specifier: string): string => {
  try {
    return import.meta.resolve(specifier)
  } catch {
    return pathToFileURL(createRequire(import.meta.url).resolve(specifier)).href
  }
}

const runInitdb = (dir: string, startParams: ReadonlyArray<string>): Promise<void> =>
  new Promise((resolve, reject) => {
    const worker = new Worker(new URL(`data:text/javascript,${encodeURIComponent(workerSource)}`), {
      workerData: {
        pglite: moduleUrl("@electric-sql/pglite"),
        trgm: moduleUrl("@electric-sql/pglite/contrib/pg_trgm"),
        dir,
        startParams: [...startParams]
      }
    })
    let done = false
    worker.once("message", () => {
      done = true
    })
    worker.once("error", reject)
    worker.once("exit", (code) =>
      done ? resolve() : reject(new Error(`creating the embedded database in ${dir} stopped (exit ${code})`))
    )
  })

/**
 * Throws, naming DATA_DIR, when `pgdataDir` exists and is anything but an empty directory: with no
 * `PG_VERSION` it holds no database this program made, and what it holds is not ours to delete.
 */
const refuseUnknownContents = (pgdataDir: string): void => {
  let entries: Array<string>
  try {
    entries = fs.readdirSync(pgdataDir)
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return
    throw new Error(`DATA_DIR: cannot use ${pgdataDir} for the embedded database (${(e as Error).message})`)
  }
  if (entries.length > 0)
    throw new Error(
      `DATA_DIR: ${pgdataDir} holds files but no database (it has no PG_VERSION), so nothing was changed; ` +
        "move it away to start a new database, or restore a backup with `board restore FILE`"
    )
}

/** Runs initdb for `pgdataDir` in a worker thread; resolves once the whole database is in place. */
export const initdbApart = async (pgdataDir: string, startParams: ReadonlyArray<string>): Promise<void> => {
  refuseUnknownContents(pgdataDir)
  const creating = `${pgdataDir}.creating`
  fs.rmSync(creating, { recursive: true, force: true })
  await runInitdb(creating, startParams)
  // an empty pgdata (refuseUnknownContents let nothing else through)
  fs.rmSync(pgdataDir, { recursive: true, force: true })
  fs.renameSync(creating, pgdataDir)
}
