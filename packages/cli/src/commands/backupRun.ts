/**
 * `board backup FILE` and `board restore FILE`: loaded only when the commands run. The file's
 * layout is core/src/infra/backupFile.ts. The embedded database is dumped by PGlite itself (by
 * the server that owns it when one runs, between its transactions); PostgreSQL by `pg_dump`.
 */
import {
  type AppConfigValues,
  acquireDataDirLock,
  callAdmin,
  databaseEntry,
  dumpEmbedded,
  embeddedDatabaseDir,
  ensureDataDir,
  layerEmbedded,
  localFilesRoot,
  maskUrlPassword,
  postgresHoldsBoard,
  readBackup,
  restoreEmbedded,
  writeBackup
} from "@board/core"
import { Effect } from "effect"
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { loadConfig, operatorFailure, runOperator, targetFor } from "../support/operatorRuntime.ts"
import { CliExit, exitCodes } from "../support/runtime.ts"

/** The URL without its password, and the password for PGPASSWORD: never on a command line. */
const splitPassword = (databaseUrl: string): { url: string; password: string | undefined } => {
  const url = new URL(databaseUrl)
  const password = url.password === "" ? undefined : decodeURIComponent(url.password)
  url.password = ""
  return { url: url.toString(), password }
}

/** Runs a PostgreSQL client tool; a missing tool or a failure is one line. */
const runTool = (command: string, tool: string, args: ReadonlyArray<string>, databaseUrl: string) =>
  new Promise<void>((resolve, reject) => {
    const { password } = splitPassword(databaseUrl)
    const child = spawn(tool, [...args], {
      stdio: ["ignore", "ignore", "pipe"],
      env: { ...process.env, ...(password === undefined ? {} : { PGPASSWORD: password }) }
    })
    let stderr = ""
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString()
    })
    child.on("error", (e: NodeJS.ErrnoException) =>
      reject(
        new CliExit(
          exitCodes.error,
          e.code === "ENOENT"
            ? `${command}: ${tool} is not installed; install PostgreSQL's client tools (pg_dump and pg_restore, of the server's major version or newer)`
            : `${command}: cannot run ${tool} (${e.message})`
        )
      )
    )
    child.on("exit", (code) =>
      code === 0
        ? resolve()
        : reject(
            new CliExit(
              exitCodes.error,
              `${command} failed: ${tool} exited ${code} on ${maskUrlPassword(databaseUrl)}: ${stderr.trim().split("\n").slice(-3).join(" ")}`
            )
          )
    )
  })

/** DATA_DIR, when it holds a secret or desktop builds that belong in (or come back from) a backup. */
const dataDirOf = (config: AppConfigValues): string | undefined =>
  config.dataDir !== "memory:" && fs.existsSync(config.dataDir) ? path.resolve(config.dataDir) : undefined

export const runBackup = async (file: string): Promise<void> => {
  const command = "board backup"
  const config = loadConfig()
  const target = targetFor(config, command)
  const out = path.resolve(file)
  // beside the output, so the finished archive is a rename away (and the server may write there)
  const scratch = fs.mkdtempSync(path.join(path.dirname(out), ".board-dump-"))
  const dump = path.join(scratch, "database")
  try {
    if (target.kind === "server") {
      await callAdmin(target.owner.socket, { op: "backup", file: dump }).catch((e) => {
        throw operatorFailure(command, config, e)
      })
    } else if (target.kind === "embedded") {
      await runOperator(
        command,
        config,
        dumpEmbedded(dump).pipe(Effect.provide(layerEmbedded(config.dataDir)), Effect.scoped)
      )
    } else {
      const { url } = splitPassword(config.databaseUrl!)
      await runTool(
        command,
        "pg_dump",
        ["--format=custom", "--no-owner", "--no-privileges", `--file=${dump}`, `--dbname=${url}`],
        config.databaseUrl!
      )
    }
    const written = await writeBackup({
      file: out,
      database: target.kind === "postgres" ? "postgres" : "embedded",
      dump,
      dataDir: dataDirOf(config),
      createdAt: new Date().toISOString()
    })
    process.stderr.write(`${command}: wrote ${out} (${written.bytes} bytes: ${written.entries.join(", ")})\n`)
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true })
  }
}

/** What of the backup goes back into DATA_DIR beside the database: the secret and the desktop builds. */
const dataDirEntries = (unpacked: string) =>
  ["secret", "files"].filter((name) => fs.existsSync(path.join(unpacked, name)))

/** Refuses before anything is written when one of them is there already (never over what is there). */
const checkDataDirFree = (command: string, unpacked: string, dataDir: string): void => {
  for (const name of dataDirEntries(unpacked)) {
    const to = path.join(dataDir, name)
    if (fs.existsSync(to)) {
      throw new CliExit(exitCodes.usage, `${command}: ${to} exists already; restore into an empty data directory`)
    }
  }
}

const copyDataDirFiles = (unpacked: string, dataDir: string): ReadonlyArray<string> => {
  const restored = dataDirEntries(unpacked)
  for (const name of restored) {
    const to = path.join(dataDir, name)
    fs.cpSync(path.join(unpacked, name), to, { recursive: true })
    if (name === "secret") fs.chmodSync(to, 0o600)
  }
  return restored
}

export const runRestore = async (file: string): Promise<void> => {
  const command = "board restore"
  const config = loadConfig()
  const unpacked = fs.mkdtempSync(path.join(os.tmpdir(), "board-restore-"))
  try {
    const manifest = await readBackup(path.resolve(file), unpacked).catch((e: Error) => {
      throw new CliExit(exitCodes.usage, `${command}: ${e.message}`)
    })
    const dump = path.join(unpacked, databaseEntry(manifest.database))
    if (config.databaseUrl === undefined) {
      if (config.dataDir === "memory:") {
        throw new CliExit(
          exitCodes.usage,
          `${command}: DATA_DIR=memory: keeps nothing; set DATA_DIR to an empty directory`
        )
      }
      if (manifest.database !== "embedded") {
        throw new CliExit(
          exitCodes.usage,
          `${command}: ${file} holds a PostgreSQL dump; set DATABASE_URL to an empty PostgreSQL database to restore it`
        )
      }
      const dataDir = path.resolve(config.dataDir)
      if (fs.existsSync(embeddedDatabaseDir(dataDir))) {
        throw new CliExit(
          exitCodes.usage,
          `${command}: ${dataDir} already holds a database (DATA_DIR); restore into an empty data directory`
        )
      }
      // the one operator command that creates a data directory: restoring is making one
      ensureDataDir(dataDir)
      process.stderr.write(`${command}: database: embedded in ${dataDir} (new)\n`)
      // no server may start on it while it is being written
      const release = acquireDataDirLock(dataDir, "")
      try {
        checkDataDirFree(command, unpacked, dataDir)
        try {
          await restoreEmbedded(dataDir, fs.readFileSync(dump))
        } catch (e) {
          // nothing half-made stays behind: a retry finds the directory as it was
          fs.rmSync(embeddedDatabaseDir(dataDir), { recursive: true, force: true })
          throw new CliExit(exitCodes.error, `${command} failed: ${(e as Error).message}`)
        }
        const restored = copyDataDirFiles(unpacked, dataDir)
        process.stderr.write(
          `${command}: restored the database${restored.map((r) => `, ${r}`).join("")} into ${dataDir}\n`
        )
      } finally {
        release()
      }
      return
    }
    if (manifest.database !== "postgres") {
      throw new CliExit(
        exitCodes.usage,
        `${command}: ${file} holds an embedded database; unset DATABASE_URL and set DATA_DIR to an empty directory to restore it`
      )
    }
    process.stderr.write(`${command}: database: PostgreSQL at ${maskUrlPassword(config.databaseUrl)} (DATABASE_URL)\n`)
    if (await runOperator(command, config, postgresHoldsBoard(config.databaseUrl))) {
      throw new CliExit(
        exitCodes.usage,
        `${command}: the database at ${maskUrlPassword(config.databaseUrl)} already holds a board; restore into an empty database`
      )
    }
    const root = localFilesRoot(config)
    if (root !== undefined && fs.existsSync(config.dataDir)) checkDataDirFree(command, unpacked, config.dataDir)
    const { url } = splitPassword(config.databaseUrl)
    await runTool(
      command,
      "pg_restore",
      ["--no-owner", "--no-privileges", "--exit-on-error", "--single-transaction", `--dbname=${url}`, dump],
      config.databaseUrl
    )
    let restored: ReadonlyArray<string> = []
    if (root !== undefined) {
      ensureDataDir(config.dataDir)
      restored = copyDataDirFiles(unpacked, path.resolve(config.dataDir))
    }
    process.stderr.write(`${command}: restored the database${restored.map((r) => `, ${r}`).join("")}\n`)
  } finally {
    fs.rmSync(unpacked, { recursive: true, force: true })
  }
}
