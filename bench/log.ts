/** The run's log: a line on stderr (stdout gets the report's tables at the end). */
export const log = (line: string) => process.stderr.write(`${line}\n`)
