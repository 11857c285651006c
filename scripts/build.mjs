#!/usr/bin/env node
/**
 * The build: bundles the `board` program (CLI and server) into dist/ with esbuild, so that no
 * process strips TypeScript or resolves hundreds of modules at start. Code behind a dynamic
 * import (each CLI command, the server, PGlite, the AWS SDK, Redis) becomes its own chunk and
 * is loaded only when used. Runs at install (postinstall) and before the test suite.
 */
import { build } from "esbuild"
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import * as zlib from "node:zlib"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")
const outdir = path.join(root, "dist")

// Packages that load files beside their own code (PGlite's wasm and data, the AWS SDK's
// runtime config) stay packages, resolved from the root's node_modules at run time.
const external = ["@electric-sql/*", "@aws-sdk/*"]

export const buildAll = async () => {
  fs.rmSync(outdir, { recursive: true, force: true })
  const result = await build({
    absWorkingDir: root,
    entryPoints: { board: "packages/cli/src/main.ts" },
    outdir,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node22",
    external,
    sourcemap: "linked",
    chunkNames: "chunks/[name]-[hash]",
    legalComments: "none",
    metafile: true,
    logLevel: "warning",
    // CommonJS dependencies bundled into ESM still call require() for Node's built-ins
    banner: {
      js: "import { createRequire as __boardRequire } from 'node:module'; const require = __boardRequire(import.meta.url);"
    }
  })
  // what each output holds and imports: test/bundle.test.ts checks what a command loads
  fs.writeFileSync(path.join(outdir, "meta.json"), JSON.stringify(result.metafile))
  await buildWeb()
}

/** The web board (packages/web, Vite): static files `board serve` serves at `/`. */
export const buildWeb = async () => {
  const { build: viteBuild } = await import(
    pathToFileURL(path.join(root, "packages/web/node_modules/vite/dist/node/index.js")).href
  )
  // the app is always built for production: run by the test suite (NODE_ENV=test) Vite took
  // NODE_ENV as it found it, and React's development build doubled the JavaScript served
  const nodeEnv = process.env.NODE_ENV
  process.env.NODE_ENV = "production"
  try {
    await viteBuild({
      configFile: path.join(root, "packages/web/vite.config.ts"),
      logLevel: "warn",
      mode: "production"
    })
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV
    else process.env.NODE_ENV = nodeEnv
  }
  precompress(path.join(root, "packages/web/dist"))
}

// what packages/http/src/web/WebApp.ts sends compressed (its COMPRESSIBLE)
const COMPRESSIBLE = new Set([".html", ".js", ".mjs", ".css", ".json", ".map", ".svg", ".txt", ".wasm"])

/**
 * `.br` (quality 11) and `.gz` (level 9) beside each text file of the built app: the server sends
 * them as they are, so the best compression costs the build a second, never a request.
 */
const precompress = (dir) => {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !COMPRESSIBLE.has(path.extname(entry.name))) continue
    const file = path.join(entry.parentPath, entry.name)
    const raw = fs.readFileSync(file)
    fs.writeFileSync(`${file}.gz`, zlib.gzipSync(raw, { level: 9 }))
    fs.writeFileSync(
      `${file}.br`,
      zlib.brotliCompressSync(raw, {
        params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length }
      })
    )
  }
}

const newestSource = () => {
  let newest = 0
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name)
      if (entry.isDirectory()) walk(file)
      else newest = Math.max(newest, fs.statSync(file).mtimeMs)
    }
  }
  for (const dir of ["packages/cli/src", "packages/http/src", "packages/core/src", "packages/web/src"])
    walk(path.join(root, dir))
  return Math.max(newest, fs.statSync(fileURLToPath(import.meta.url)).mtimeMs)
}

/** True when dist/ is missing or older than a source file (an edit since the last build). */
export const isStale = () => {
  const built = path.join(outdir, "board.js")
  return !fs.existsSync(built) || fs.statSync(built).mtimeMs < newestSource()
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  // --if-stale: `pnpm start` and the test suite rebuild only after an edit
  if (process.argv.includes("--if-stale") && !isStale()) process.exit(0)
  const started = performance.now()
  await buildAll()
  if (!process.argv.includes("--quiet"))
    process.stderr.write(`board: built dist/ in ${Math.round(performance.now() - started)} ms\n`)
}
