/** Temporary directories for one test file, removed after it (register with `afterAll`). */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { afterAll } from "vitest"

/** A maker of fresh directories named `prefix…`; every one is removed when the file's tests end. */
export const tmpDirs = (prefix: string): (() => string) => {
  const made: Array<string> = []
  afterAll(() => {
    for (const dir of made) fs.rmSync(dir, { recursive: true, force: true })
  })
  return () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix))
    made.push(dir)
    return dir
  }
}
