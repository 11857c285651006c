/**
 * The README is the front door and links into docs/ for the reference; ARCHITECTURE.md and the
 * docs link to each other. A moved section or a renamed heading must not leave a dead link, so
 * every relative link (and image) in them must name a file that exists, and a `#fragment` must
 * name a heading of the Markdown file it points at (GitHub's anchor: lower case, punctuation
 * dropped, spaces to hyphens). Links inside fenced code blocks are shell or JSON, not links.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { describe, expect, it } from "vitest"

const repoRoot = path.join(import.meta.dirname, "..")

const markdownFiles = [
  "README.md",
  "ARCHITECTURE.md",
  ...fs
    .readdirSync(path.join(repoRoot, "docs"))
    .filter((f) => f.endsWith(".md"))
    .map((f) => `docs/${f}`)
]

const withoutCode = (text: string) => text.replace(/^```[\s\S]*?^```/gm, "")

const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/\]\([^)]*\)|[`*_[\]]/g, "")
    .replace(/[^\p{L}\p{N}\- ]/gu, "")
    .replace(/ /g, "-")

const anchorsOf = (file: string) =>
  new Set(
    withoutCode(fs.readFileSync(file, "utf8"))
      .split("\n")
      .filter((line) => line.startsWith("#"))
      .map((line) => slug(line.replace(/^#+/, "")))
  )

/** Every relative link target in a Markdown file: "path", "path#fragment" or "#fragment". */
const relativeLinks = (file: string) =>
  [...withoutCode(fs.readFileSync(path.join(repoRoot, file), "utf8")).matchAll(/!?\[[^\]]*\]\(([^)\s]+)\)/g)]
    .map((m) => m[1]!)
    .filter((target) => !/^[a-z]+:/i.test(target))

describe("links in the README, ARCHITECTURE.md and docs/", () => {
  it("finds the links it checks", () => {
    expect(relativeLinks("README.md").length).toBeGreaterThan(20)
  })

  it.each(markdownFiles)("%s: every relative link names an existing file and heading", (file) => {
    const broken = relativeLinks(file).filter((target) => {
      const [linkPath, fragment] = target.split("#") as [string, string | undefined]
      const resolved = linkPath === "" ? path.join(repoRoot, file) : path.join(repoRoot, path.dirname(file), linkPath)
      if (!fs.existsSync(resolved)) return true
      return fragment !== undefined && resolved.endsWith(".md") && !anchorsOf(resolved).has(fragment)
    })
    expect(broken).toEqual([])
  })
})
