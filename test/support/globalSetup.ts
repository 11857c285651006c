/**
 * The suites spawn the real `bin/board.mjs`, which runs the bundle in dist/: rebuild it first
 * when a source file changed since the last build, so that no test runs yesterday's server.
 */
import { execFileSync } from "node:child_process"
import * as path from "node:path"

export default function setup() {
  execFileSync(process.execPath, [path.join(import.meta.dirname, "../../scripts/build.mjs"), "--if-stale"], {
    stdio: "inherit"
  })
}
