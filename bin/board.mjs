#!/usr/bin/env node
// The one executable: `board serve`, `board migrate`, `board <noun> <verb>`.
const [major, minor] = process.versions.node.split(".").map(Number)
if (major < 22 || (major === 22 && minor < 19)) {
  process.stderr.write(
    `board needs Node.js >= 22.19 (this is ${process.versions.node}); run it through the project: npx -y pnpm@10 board <command>\n`
  )
  process.exit(1)
}
const { main } = await import("../packages/cli/src/main.ts")
await main(process.argv)
