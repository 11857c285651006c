#!/usr/bin/env node
// The one executable: `board serve`, `board migrate`, `board <noun> <verb>`. It runs the bundle
// in dist/ that the install builds (scripts/build.mjs): no TypeScript is compiled at start.
const [major, minor] = process.versions.node.split(".").map(Number)
if (major < 22 || (major === 22 && minor < 19)) {
  process.stderr.write(
    `board needs Node.js >= 22.19 (this is ${process.versions.node}); run it through the project: npx -y pnpm@10 board <command>\n`
  )
  process.exit(1)
}
// V8 keeps the compiled bundle on disk between runs (Node's module compile cache)
const { enableCompileCache } = await import("node:module")
enableCompileCache?.()
let bundle
try {
  bundle = await import("../dist/board.js")
} catch (e) {
  if (e?.code !== "ERR_MODULE_NOT_FOUND" || !String(e.message).includes("dist/board.js")) throw e
  process.stderr.write("board: dist/ is missing; build it with `npx -y pnpm@10 install` (or `npx -y pnpm@10 build`)\n")
  process.exit(1)
}
await bundle.main(process.argv)
