/**
 * Before the layers that run the server: the suites spawn the real `bin/board.mjs`, which runs
 * the bundle in dist/, so rebuild it first when a source file changed since the last build (no
 * test runs yesterday's server); then make the migrated databases the tests clone (templates.ts).
 */
import { execFileSync } from "node:child_process"
import * as path from "node:path"
import { makeTemplates } from "./templates.ts"

export default function setup() {
  execFileSync(process.execPath, [path.join(import.meta.dirname, "../../scripts/build.mjs"), "--if-stale"], {
    stdio: "inherit"
  })
  return makeTemplates()
}
