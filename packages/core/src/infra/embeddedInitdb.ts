/**
 * The first start of an embedded database runs PostgreSQL's initdb, in PGlite's own WebAssembly
 * module: its heap grows to hundreds of MiB and a WebAssembly memory never shrinks, so a server
 * that ran initdb itself kept that memory for as long as it ran (an embedded server idle at
 * 541-727 MiB after a first start, about 300 MiB after a restart on the same directory: issue 35).
 * Here initdb runs in a worker thread that opens the new directory once and closes it: when the
 * thread ends its isolate, and every WebAssembly memory in it, is freed, and the server then opens
 * the directory as it would after a restart. The worker gets PGlite's module URL from this
 * process, which resolves it from its own location (the bundle in dist/ or the sources).
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { Worker } from "node:worker_threads"

/** Whether `pgdataDir` already holds a database (initdb writes PG_VERSION first of all). */
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

/** Runs initdb for `pgdataDir` in a worker thread; resolves once the database is on disk. */
export const initdbApart = (pgdataDir: string, startParams: ReadonlyArray<string>): Promise<void> =>
  new Promise((resolve, reject) => {
    const worker = new Worker(new URL(`data:text/javascript,${encodeURIComponent(workerSource)}`), {
      workerData: {
        pglite: import.meta.resolve("@electric-sql/pglite"),
        trgm: import.meta.resolve("@electric-sql/pglite/contrib/pg_trgm"),
        dir: pgdataDir,
        startParams: [...startParams]
      }
    })
    let done = false
    worker.once("message", () => {
      done = true
    })
    worker.once("error", reject)
    worker.once("exit", (code) =>
      done ? resolve() : reject(new Error(`creating the embedded database in ${pgdataDir} stopped (exit ${code})`))
    )
  })
