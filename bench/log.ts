/**
 * The run's log and how it writes numbers: `log` writes a line on stderr (stdout gets the report's
 * tables at the end), `count` a count as the log and the report show it (1,000,000), `mib` bytes in
 * whole MiB ("–" when unknown).
 */
export const log = (line: string) => process.stderr.write(`${line}\n`)
export const count = (n: number) => n.toLocaleString("en-US")
export const mib = (bytes: number | undefined) => (bytes === undefined ? "–" : (bytes / 1048576).toFixed(0))
