/**
 * The runner's pure parts: the presets' parsers against samples of each agent's documented
 * output format (samples/*.jsonl, in the shapes the docs cited in presets.ts describe), the
 * branch slug, redaction and the batching of output into activities.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { group, makeBatcher } from "./batcher.ts"
import { branchName } from "./git.ts"
import { claudeParser, codexParser, geminiParser, type OutputParser, plainParser } from "./presets.ts"
import { redactor, secretValues } from "./redact.ts"

const sample = (name: string) =>
  fs
    .readFileSync(path.join(path.dirname(fileURLToPath(import.meta.url)), "samples", name), "utf8")
    .trim()
    .split("\n")

const parseAll = (parser: OutputParser, lines: ReadonlyArray<string>) => {
  const entries: Array<{ kind: string; text: string }> = []
  let final: string | undefined
  for (const line of lines) {
    const p = parser(line, "stdout")
    entries.push(...p.entries)
    if (p.final !== undefined) final = p.final
  }
  return { entries, final }
}

describe("presets parse their agent's structured output", () => {
  it("Claude Code stream-json: text as thoughts, tool calls as actions, the result as the final answer", () => {
    const { entries, final } = parseAll(claudeParser(), sample("claude.jsonl"))
    expect(entries).toEqual([
      { kind: "thought", text: "I'll look at the project layout first." },
      { kind: "action", text: "Bash: ls -la" },
      { kind: "action", text: "Write: /repo/.git/board-runner/worktrees/web-12-add-a-changelog/CHANGELOG.md" }
    ])
    expect(final).toBe("Added CHANGELOG.md with a first heading.")
  })

  it("Codex exec --json: reasoning and messages as thoughts, commands and file changes as actions", () => {
    const { entries, final } = parseAll(codexParser(), sample("codex.jsonl"))
    expect(entries).toEqual([
      { kind: "thought", text: "**Looking for the changelog**" },
      { kind: "action", text: "$ bash -lc ls (exit 0)" },
      { kind: "action", text: "changed add CHANGELOG.md" },
      { kind: "thought", text: "Added CHANGELOG.md." }
    ])
    expect(final).toBe("Added CHANGELOG.md.")
  })

  it("Gemini CLI stream-json: assistant deltas joined, tool calls as actions", () => {
    const { entries, final } = parseAll(geminiParser(), sample("gemini.jsonl"))
    expect(entries).toEqual([
      { kind: "thought", text: "I will add the changelog." },
      { kind: "action", text: "write_file: CHANGELOG.md" },
      { kind: "thought", text: "Done: CHANGELOG.md added." }
    ])
    expect(final).toBe("Done: CHANGELOG.md added.")
  })

  it("plain text: stdout thoughts, stderr actions; a JSON parser keeps a non-JSON line as text", () => {
    expect(plainParser()("hello", "stdout").entries).toEqual([{ kind: "thought", text: "hello" }])
    expect(plainParser()("npm test", "stderr").entries).toEqual([{ kind: "action", text: "npm test" }])
    expect(claudeParser()("{not json", "stdout").entries).toEqual([{ kind: "thought", text: "{not json" }])
  })
})

describe("branch names", () => {
  it("are the ref and a slug of letters, digits and dashes", () => {
    expect(branchName("WEB-12", "Fix login")).toBe("web-12-fix-login")
    expect(branchName("WEB-3", `Fix "it" $(rm -rf /); echo \`id\` 'q' | tee x`)).toBe(
      "web-3-fix-it-rm-rf-echo-id-q-tee-x"
    )
    expect(branchName("WEB-4", "Ünïcödé --force")).toBe("web-4-unicode-force")
    expect(branchName("WEB-5", "!!!")).toBe("web-5")
    expect(branchName("WEB-6", "a".repeat(100))).toBe(`web-6-${"a".repeat(40)}`)
  })
})

describe("redaction and batching", () => {
  it("redacts the credential and secret-named variables, never ordinary values", () => {
    const secrets = secretValues({ GITHUB_TOKEN: "ghp_abcdefgh1234", HOME: "/home/someone-long" }, ["svc_key123456"])
    const redact = redactor(secrets)
    expect(redact("key svc_key123456 and ghp_abcdefgh1234 in /home/someone-long")).toBe(
      "key [redacted] and [redacted] in /home/someone-long"
    )
  })

  it("joins runs of one kind into bodies under the limit", () => {
    const bodies = group(
      [
        { kind: "thought", text: "a" },
        { kind: "thought", text: "b" },
        { kind: "action", text: "c" },
        { kind: "thought", text: "x".repeat(30) }
      ],
      20
    )
    expect(bodies).toEqual([
      { kind: "thought", text: "a\nb" },
      { kind: "action", text: "c" },
      { kind: "thought", text: `${"x".repeat(19)}…` }
    ])
  })

  it("posts many lines in one request, holds them while paused and keeps what failed", async () => {
    const posted: Array<string> = []
    let paused = false
    let failing = false
    const b = makeBatcher({
      redact: (s) => s,
      paused: () => paused,
      intervalMs: 60_000,
      post: async (_kind, body) => {
        if (failing) return false
        posted.push(body)
        return true
      }
    })
    for (let i = 0; i < 100; i++) b.add({ kind: "thought", text: `line ${i}` })
    paused = true
    await b.flush()
    expect(posted).toEqual([])
    paused = false
    failing = true
    await b.flush()
    expect(posted).toEqual([])
    failing = false
    await b.close()
    expect(posted).toHaveLength(1)
    expect(posted[0].split("\n")).toHaveLength(100)
  })
})
