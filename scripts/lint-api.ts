/**
 * `pnpm lint:api`: the OpenAPI document, generated in this process exactly as the server builds
 * it (no server, no database), linted with Redocly's `recommended` rules and Spectral's
 * `spectral:oas`. Any error or warning of either fails. The rules are configured in
 * redocly.yaml and .spectral.yaml, each change there with its reason.
 */
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { makeOpenApiDocument } from "../packages/http/src/OpenApiDocument.ts"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")
// a hosted service's address: the rules rightly flag a document that points at localhost
const publicUrl = process.env.LINT_API_PUBLIC_URL ?? "https://board.acme.dev"
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "board-openapi-"))
const file = path.join(dir, "openapi.json")
fs.writeFileSync(file, JSON.stringify(makeOpenApiDocument(publicUrl), null, 2))

// neither tool may phone home from CI
const env = { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" }
const bin = (name: string) => path.join(root, "node_modules", ".bin", name)
/** Runs a linter; fails on its exit status or, since Redocly exits 0 on warnings, on any warning it prints. */
const run = (label: string, command: string, args: ReadonlyArray<string>) => {
  console.log(`lint:api: ${label}`)
  const result = spawnSync(command, args, { encoding: "utf8", env, cwd: root })
  const output = `${result.stdout}${result.stderr}`
  process.stdout.write(output)
  return result.status === 0 && !/\bwarning/iu.test(output)
}
const redocly = run("Redocly (recommended)", bin("redocly"), [
  "lint",
  "--config",
  path.join(root, "redocly.yaml"),
  "--format",
  "stylish",
  "--max-problems",
  "1000",
  file
])
const spectral = run("Spectral (spectral:oas)", bin("spectral"), [
  "lint",
  "--ruleset",
  path.join(root, ".spectral.yaml"),
  "--fail-severity",
  "warn",
  file
])
fs.rmSync(dir, { recursive: true, force: true })
if (!redocly || !spectral) process.exit(1)
