/**
 * Where a command's text goes: data to stdout (JSON with --json), messages to stderr (none
 * with --quiet). Colours only when the stream is a terminal and NO_COLOR is not set.
 */
import { Context, Effect, Layer } from "effect"
import { Settings } from "./settings.ts"

export interface Style {
  readonly bold: (s: string) => string
  readonly dim: (s: string) => string
  readonly red: (s: string) => string
  readonly green: (s: string) => string
  readonly yellow: (s: string) => string
  readonly cyan: (s: string) => string
  readonly magenta: (s: string) => string
}

const sgr = (open: number, close: number) => (s: string) => `\u001b[${open}m${s}\u001b[${close}m`
const plain = (s: string) => s

export const colors: Style = {
  bold: sgr(1, 22),
  dim: sgr(2, 22),
  red: sgr(31, 39),
  green: sgr(32, 39),
  yellow: sgr(33, 39),
  cyan: sgr(36, 39),
  magenta: sgr(35, 39)
}
export const noColors: Style = {
  bold: plain,
  dim: plain,
  red: plain,
  green: plain,
  yellow: plain,
  cyan: plain,
  magenta: plain
}

/** https://no-color.org: present and not empty disables colour. */
export const useColor = (stream: { isTTY?: boolean }, env: NodeJS.ProcessEnv): boolean =>
  stream.isTTY === true && (env.NO_COLOR === undefined || env.NO_COLOR === "") && env.TERM !== "dumb"

export interface Writable {
  readonly write: (s: string) => unknown
  readonly isTTY?: boolean
  readonly columns?: number
}

export class Output extends Context.Service<
  Output,
  {
    readonly json: boolean
    /** Styles for stdout. */
    readonly style: Style
    /** The terminal's width when stdout is one; undefined when it is a pipe or a file. */
    readonly width: number | undefined
    /** Lines of data on stdout. */
    readonly data: (text: string) => Effect.Effect<void>
    /** A progress or confirmation message on stderr; suppressed by --quiet. */
    readonly message: (text: string) => Effect.Effect<void>
    /** With --json the value as JSON; otherwise the human text (if any). */
    readonly result: (value: unknown, human: () => string | undefined) => Effect.Effect<void>
  }
>()("board/cli/Output") {}

export const makeOutput = (options: {
  json: boolean
  quiet: boolean
  env: NodeJS.ProcessEnv
  stdout: Writable
  stderr: Writable
}) => {
  const style = useColor(options.stdout, options.env) ? colors : noColors
  const line = (text: string) => (text.endsWith("\n") ? text : `${text}\n`)
  const data = (text: string) => Effect.sync(() => void options.stdout.write(line(text)))
  return Output.of({
    json: options.json,
    style,
    width: options.stdout.isTTY === true ? (options.stdout.columns ?? 80) : undefined,
    data,
    message: (text) => (options.quiet ? Effect.void : Effect.sync(() => void options.stderr.write(line(text)))),
    result: (value, human) => {
      if (options.json) return data(JSON.stringify(value, null, 2))
      const text = human()
      return text === undefined || text === "" ? Effect.void : data(text)
    }
  })
}

export const layer = Layer.effect(
  Output,
  Effect.map(Settings, (s) =>
    makeOutput({ json: s.json, quiet: s.quiet, env: s.env, stdout: process.stdout, stderr: process.stderr })
  )
)

/** Plain columns, padded to the widest cell; the last column is never padded. */
export const table = (
  rows: ReadonlyArray<ReadonlyArray<string>>,
  style: Style,
  header?: ReadonlyArray<string>
): string => {
  const all = header === undefined ? rows : [header, ...rows]
  if (all.length === 0) return ""
  const widths = all[0].map((_, i) => Math.max(...all.map((r) => visibleLength(r[i] ?? ""))))
  const render = (r: ReadonlyArray<string>) =>
    r
      .map((cell, i) => (i === r.length - 1 ? cell : cell + " ".repeat(widths[i] - visibleLength(cell))))
      .join("  ")
      .trimEnd()
  return [...(header === undefined ? [] : [style.bold(render(header))]), ...rows.map(render)].join("\n")
}

// eslint-disable-next-line no-control-regex
const ansi = /\u001b\[[0-9;]*m/g
export const visibleLength = (s: string): number => [...s.replace(ansi, "")].length
