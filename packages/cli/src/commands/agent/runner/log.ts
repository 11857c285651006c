/**
 * The runner's log: one JSON line per action on stdout (`{time, level, msg, …}`, the shape of
 * the server's own lines), so a service manager's journal can be filtered with `jq`.
 */
export type LogFields = Record<string, string | number | boolean | null | undefined>

export interface RunnerLog {
  readonly info: (msg: string, fields?: LogFields) => void
  readonly warn: (msg: string, fields?: LogFields) => void
  readonly error: (msg: string, fields?: LogFields) => void
}

export const jsonLog = (write: (line: string) => void = (l) => void process.stdout.write(l)): RunnerLog => {
  const line =
    (level: string) =>
    (msg: string, fields: LogFields = {}) => {
      const clean: Record<string, unknown> = {}
      for (const [k, v] of Object.entries(fields)) if (v !== undefined) clean[k] = v
      write(`${JSON.stringify({ time: new Date().toISOString(), level, msg, ...clean })}\n`)
    }
  return { info: line("info"), warn: line("warn"), error: line("error") }
}
