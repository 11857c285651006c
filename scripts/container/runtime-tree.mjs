#!/usr/bin/env node
/**
 * Assembles what `board` needs at run time into one directory (the container image's /app):
 * the built bundle (dist/, without source maps), bin/board.mjs, the migrations, the built web
 * app, and node_modules holding only the packages the bundle leaves external (PGlite, the AWS
 * SDK: they load files beside their code; scripts/build.mjs) plus the API reference's browser
 * bundle. Everything else the bundle already holds. Run after the install built dist/.
 * Usage: node scripts/container/runtime-tree.mjs OUT_DIR
 */
import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..")
const out = path.resolve(process.argv[2] ?? "")
if (!process.argv[2]) throw new Error("usage: runtime-tree.mjs OUT_DIR")
fs.rmSync(out, { recursive: true, force: true })
fs.mkdirSync(out, { recursive: true })

const copy = (from, to = from, filter = () => true) =>
  fs.cpSync(path.join(root, from), path.join(out, to), { recursive: true, filter, dereference: true })

copy("bin")
copy("dist", "dist", (src) => !src.endsWith(".map") && !src.endsWith("meta.json"))
copy("migrations", "migrations", (src) => !src.endsWith("schema.sql"))
copy("packages/web/dist")

const rootPackage = JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8"))
const installed = (name) =>
  JSON.parse(fs.readFileSync(path.join(root, "node_modules", name, "package.json"), "utf8")).version

// the external packages, at the versions the lockfile installed, with their own dependencies
const external = [
  "@electric-sql/pglite",
  "@electric-sql/pglite-socket",
  "@aws-sdk/client-s3",
  "@aws-sdk/s3-request-presigner"
]
fs.writeFileSync(
  path.join(out, "package.json"),
  `${JSON.stringify(
    {
      name: rootPackage.name,
      version: rootPackage.version,
      private: true,
      type: "module",
      bin: { board: "bin/board.mjs" },
      dependencies: Object.fromEntries(external.map((name) => [name, installed(name)]))
    },
    null,
    2
  )}\n`
)
execFileSync("npm", ["install", "--omit=dev", "--no-package-lock", "--no-audit", "--no-fund", "--ignore-scripts"], {
  cwd: out,
  stdio: "inherit"
})

// the API reference page's browser bundle (http/src/ApiReference.ts resolves the package's entry
// and reads browser/standalone.js beside it): the package.json, the entry and that one file
const scalar = "node_modules/@scalar/api-reference"
const scalarPackage = JSON.parse(fs.readFileSync(path.join(root, scalar, "package.json"), "utf8"))
fs.mkdirSync(path.join(out, scalar, "dist/browser"), { recursive: true })
fs.writeFileSync(
  path.join(out, scalar, "package.json"),
  `${JSON.stringify({ name: scalarPackage.name, version: scalarPackage.version, type: "module", exports: { ".": "./dist/index.js" } })}\n`
)
fs.writeFileSync(path.join(out, scalar, "dist/index.js"), "export {}\n")
copy(`${scalar}/dist/browser/standalone.js`)
if (fs.existsSync(path.join(root, scalar, "LICENSE"))) copy(`${scalar}/LICENSE`)
