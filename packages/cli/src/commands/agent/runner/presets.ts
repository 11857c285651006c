/**
 * Ready command lines for the agent CLIs people run, and the parsers of their structured output.
 * Each preset reads the card's prompt on standard input and works in the current directory (the
 * card's worktree). Where a CLI prints JSON lines, each line becomes `thought` (what the agent
 * says) or `action` (what it does: a tool call, a command) entries; anything else is text:
 * standard output as `thought`, standard error as `action`. Formats, as documented:
 *
 * - Claude Code, `--output-format stream-json` (needs `--verbose` with `-p`): one JSON message per
 *   line, `system` (init), `assistant` (content blocks `text`, `thinking`, `tool_use`), `user`
 *   (`tool_result`), then `result` with the final text.
 *   https://docs.claude.com/en/docs/claude-code/headless ("Streaming JSON output"),
 *   https://docs.claude.com/en/docs/claude-code/sdk/sdk-headless
 * - Codex, `codex exec --json`: JSON Lines of thread events `thread.started`, `turn.started`,
 *   `item.started|updated|completed` (items `agent_message`, `reasoning`, `command_execution`,
 *   `file_change`, `mcp_tool_call`, `web_search`, `todo_list`, `error`), `turn.completed`,
 *   `turn.failed`, `error`. https://developers.openai.com/codex/noninteractive and
 *   github.com/openai/codex `docs/exec.md` ("JSON output mode")
 * - Gemini CLI, `--output-format stream-json`: JSON Lines `init`, `message` (role, content,
 *   `delta`), `tool_use`, `tool_result`, `error`, `result`.
 *   https://geminicli.com/docs/cli/headless/ ("Streaming JSON output")
 * - Aider: plain text (`--message-file`), https://aider.chat/docs/scripting.html
 *
 * Samples of each format, in the documented shapes: samples/*.jsonl, tested by runner.test.ts.
 */
import type { Entry } from "./batcher.ts"

export interface Parsed {
  readonly entries: ReadonlyArray<Entry>
  /** The agent's final answer, when its format has one: quoted in the `response`. */
  readonly final?: string
}

export type OutputParser = (line: string, stream: "stdout" | "stderr") => Parsed

export interface Preset {
  readonly command: string
  readonly parser: () => OutputParser
  readonly docs: string
}

const none: Parsed = { entries: [] }
const text = (line: string, stream: "stdout" | "stderr"): Parsed =>
  line.trim() === "" ? none : { entries: [{ kind: stream === "stdout" ? "thought" : "action", text: line }] }

export const plainParser = (): OutputParser => text

/** A parsed JSON object: the agents' formats are read field by field, each checked where used. */
// biome-ignore lint/suspicious/noExplicitAny: foreign JSON, read defensively
type JsonObject = Record<string, any>

const obj = (v: unknown): JsonObject | undefined =>
  typeof v === "object" && v !== null && !Array.isArray(v) ? (v as JsonObject) : undefined

/** A JSON-lines parser: stdout lines that are JSON objects go to `onEvent`, the rest is text. */
const jsonLines =
  (onEvent: (event: JsonObject) => Parsed): OutputParser =>
  (line, stream) => {
    if (stream === "stdout" && line.trimStart().startsWith("{")) {
      let parsed: unknown
      try {
        parsed = JSON.parse(line)
      } catch {
        return text(line, stream)
      }
      const event = obj(parsed)
      if (event !== undefined) return onEvent(event)
    }
    return text(line, stream)
  }

const short = (v: unknown, max = 300): string => {
  const s = typeof v === "string" ? v : (JSON.stringify(v) ?? "")
  return s.length > max ? `${s.slice(0, max - 1)}…` : s
}

/** `Edit src/a.ts`, `Bash: npm test`: a tool call in a line. */
const toolLine = (name: string, input: JsonObject | undefined): string => {
  if (input === undefined) return name
  const main = input.command ?? input.file_path ?? input.path ?? input.absolute_path ?? input.pattern ?? input.url
  return main !== undefined ? `${name}: ${short(main)}` : `${name} ${short(input)}`
}

export const claudeParser = (): OutputParser =>
  jsonLines((e) => {
    if (e.type === "assistant") {
      const entries: Array<Entry> = []
      for (const block of (obj(e.message)?.content as Array<unknown>) ?? []) {
        const b = obj(block)
        if (b?.type === "text" && typeof b.text === "string") entries.push({ kind: "thought", text: b.text })
        else if (b?.type === "thinking" && typeof b.thinking === "string")
          entries.push({ kind: "thought", text: b.thinking })
        else if (b?.type === "tool_use") entries.push({ kind: "action", text: toolLine(String(b.name), obj(b.input)) })
      }
      return { entries }
    }
    if (e.type === "result") {
      const final = typeof e.result === "string" ? e.result : undefined
      const failed = e.is_error === true || (typeof e.subtype === "string" && e.subtype !== "success")
      return {
        entries: failed ? [{ kind: "thought", text: `Claude Code ended: ${e.subtype ?? "error"}` }] : [],
        ...(final !== undefined ? { final } : {})
      }
    }
    return none
  })

export const codexParser = (): OutputParser => {
  let final: string | undefined
  return jsonLines((e) => {
    if (e.type === "item.completed") {
      const item = obj(e.item) ?? {}
      switch (item.type) {
        case "agent_message":
          final = String(item.text ?? "")
          return { entries: [{ kind: "thought", text: final }], final }
        case "reasoning":
          return { entries: [{ kind: "thought", text: String(item.text ?? "") }] }
        case "command_execution":
          return {
            entries: [{ kind: "action", text: `$ ${short(item.command)} (exit ${item.exit_code ?? "?"})` }]
          }
        case "file_change": {
          const changes = ((item.changes as Array<unknown>) ?? []).map((c) => `${obj(c)?.kind} ${obj(c)?.path}`)
          return { entries: [{ kind: "action", text: `changed ${changes.join(", ")}` }] }
        }
        case "mcp_tool_call":
          return { entries: [{ kind: "action", text: `${item.server}.${item.tool}` }] }
        case "web_search":
          return { entries: [{ kind: "action", text: `web search: ${short(item.query)}` }] }
        case "error":
          return { entries: [{ kind: "thought", text: `error: ${item.message}` }] }
        default:
          return none
      }
    }
    if (e.type === "turn.failed")
      return { entries: [{ kind: "thought", text: `turn failed: ${obj(e.error)?.message}` }] }
    if (e.type === "error") return { entries: [{ kind: "thought", text: `error: ${e.message}` }] }
    return none
  })
}

export const geminiParser = (): OutputParser => {
  // assistant messages arrive in `delta` chunks: gathered until something else happens
  let said = ""
  const spoken = (): Array<Entry> => {
    const t = said
    said = ""
    return t.trim() === "" ? [] : [{ kind: "thought", text: t }]
  }
  return jsonLines((e) => {
    if (e.type === "message" && e.role === "assistant") {
      said += String(e.content ?? "")
      return none
    }
    if (e.type === "tool_use")
      return { entries: [...spoken(), { kind: "action", text: toolLine(String(e.tool_name), obj(e.parameters)) }] }
    if (e.type === "error") return { entries: [...spoken(), { kind: "thought", text: `error: ${e.message}` }] }
    if (e.type === "result") {
      const entries = spoken()
      const final = entries.at(-1)?.text
      return { entries, ...(final !== undefined ? { final } : {}) }
    }
    return { entries: spoken() }
  })
}

export const presets = {
  claude: {
    command: "claude -p --output-format stream-json --verbose --permission-mode acceptEdits",
    parser: claudeParser,
    docs: "Claude Code; prompt on stdin; edits accepted without asking"
  },
  codex: {
    command: "codex exec --json --full-auto -",
    parser: codexParser,
    docs: "Codex; prompt on stdin (-); sandboxed to the worktree"
  },
  gemini: {
    command: "gemini --output-format stream-json --approval-mode auto_edit",
    parser: geminiParser,
    docs: "Gemini CLI; prompt on stdin (headless when stdin is not a terminal)"
  },
  aider: {
    command: "aider --yes-always --no-pretty --no-stream --message-file /dev/stdin",
    parser: plainParser,
    docs: "Aider; prompt on stdin; commits its own changes"
  }
} as const satisfies Record<string, Preset>

export type PresetName = keyof typeof presets
export const presetNames = Object.keys(presets) as Array<PresetName>
