/**
 * The bundle the install builds (dist/, see scripts/build.mjs): what `board` loads before it
 * knows the command. The client commands (`--help`, `card show`, …) must not load the server,
 * the core's database layer, PGlite, the AWS SDK or Redis: those arrive only through the
 * dynamic imports of `serve`, `migrate` and `desktop publish`, or of the configuration that
 * needs them. Read from esbuild's metafile: the outputs reachable from dist/board.js through
 * static imports only.
 */
import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"

const repoRoot = path.join(import.meta.dirname, "..")

interface Meta {
  readonly outputs: Record<
    string,
    {
      readonly imports: ReadonlyArray<{ path: string; kind: string; external?: boolean }>
      readonly inputs: Record<string, unknown>
    }
  >
}

const meta = (): Meta => JSON.parse(fs.readFileSync(path.join(repoRoot, "dist/meta.json"), "utf8")) as Meta

/** Every output file `board.js` loads at start, and every external package it imports at start. */
const loadedAtStart = (m: Meta) => {
  const entry = Object.keys(m.outputs).find((k) => k.endsWith("dist/board.js"))!
  const files = new Set([entry])
  const externals = new Set<string>()
  const queue = [entry]
  while (queue.length > 0) {
    for (const i of m.outputs[queue.pop()!]!.imports) {
      if (i.kind !== "import-statement") continue
      if (i.external === true) externals.add(i.path)
      else if (!files.has(i.path)) {
        files.add(i.path)
        queue.push(i.path)
      }
    }
  }
  const inputs = new Set([...files].flatMap((f) => Object.keys(m.outputs[f]!.inputs)))
  return { inputs, externals }
}

describe("the bundle", () => {
  it("starts the CLI without the server, the database drivers, PGlite, the AWS SDK or Redis", () => {
    const { inputs, externals } = loadedAtStart(meta())
    const loaded = [...inputs]
    // the client commands are there …
    expect(loaded).toContain("packages/cli/src/main.ts")
    expect(loaded).toContain("packages/cli/src/commands/card/show.ts")
    // … and none of what only the operator commands and the configuration need
    for (const heavy of [
      "packages/http/src/Server.ts",
      "packages/http/src/handlers/",
      "packages/core/src/CoreLive.ts",
      "packages/core/src/infra/Database.ts",
      "packages/core/src/infra/BlobsS3.ts",
      "/@effect/sql-pg/",
      "/redis/",
      "/@redis/",
      "/ws/lib/"
    ]) {
      expect(
        loaded.filter((i) => i.includes(heavy)),
        heavy
      ).toEqual([])
    }
    expect([...externals].filter((e) => e.startsWith("@electric-sql/") || e.startsWith("@aws-sdk/"))).toEqual([])
  })

  it("board --version prints the CLI package's version; board --help lists the commands", () => {
    const { version } = JSON.parse(fs.readFileSync(path.join(repoRoot, "packages/cli/package.json"), "utf8")) as {
      version: string
    }
    const run = (...args: Array<string>) =>
      execFileSync(process.execPath, [path.join(repoRoot, "bin/board.mjs"), ...args], { encoding: "utf8" })
    expect(run("--version")).toBe(`${version}\n`)
    expect(run("-V")).toBe(`${version}\n`)
    const help = run("--help")
    expect(help).toMatch(/^Usage: board \[options\] \[command\]/)
    for (const command of ["serve", "migrate", "card", "board", "search", "desktop"])
      expect(help).toMatch(new RegExp(`\\n  ${command}\\b`))
  })
})
