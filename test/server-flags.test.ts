/**
 * The server's Node flags live in one constant (bench/startup.ts `SERVER_NODE_FLAGS`), and every
 * place that launches `board serve` for real writes them out: `pnpm start`, the Containerfile and
 * docs/operations.md's systemd unit (and supervisor.test.ts runs that unit's command line from the
 * constant). A change to the flags that misses one of them fails here, not in production.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"
import { SERVER_NODE_FLAGS } from "../bench/startup.ts"

const root = path.join(import.meta.dirname, "..")
const read = (file: string) => fs.readFileSync(path.join(root, file), "utf8")
const flags = SERVER_NODE_FLAGS.join(" ")

describe("the server's Node flags, written out where the server is launched", () => {
  it("`pnpm start` runs `node <flags> bin/board.mjs serve`", () => {
    const start = (JSON.parse(read("package.json")) as { scripts: Record<string, string> }).scripts.start!
    expect(start).toContain(`exec node ${flags} bin/board.mjs serve`)
  })

  it("the Containerfile's entrypoint passes them", () => {
    const entrypoint = read("Containerfile")
      .split("\n")
      .find((l) => l.startsWith("ENTRYPOINT"))!
    const args = JSON.parse(entrypoint.slice("ENTRYPOINT".length)) as Array<string>
    expect(args.slice(args.indexOf("node") + 1, args.indexOf("/app/bin/board.mjs"))).toEqual([...SERVER_NODE_FLAGS])
  })

  it("operations.md's systemd unit and its note on the young generation name them", () => {
    const ops = read("docs/operations.md")
    expect(ops).toContain(`ExecStart=/srv/board/node_modules/.bin/node ${flags} bin/board.mjs serve`)
    expect(ops).toContain(`\`node ${flags} bin/board.mjs serve\``)
    expect(ops).toContain(`NODE_OPTIONS=${flags}`)
  })
})
