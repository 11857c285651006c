/** The `board` program: operator commands and, through the API, board work from a terminal. */
import { Command, CommanderError } from "commander"
import { registerMigrate } from "./commands/migrate.ts"
import { registerServe } from "./commands/serve.ts"
import { CliExit, exitCodes } from "./runtime.ts"

export const buildProgram = () => {
  const program = new Command("board")
    .description("Board Service: the server and its command-line client")
    .exitOverride()
    .showHelpAfterError()
  registerServe(program)
  registerMigrate(program)
  return program
}

export const main = async (argv: ReadonlyArray<string>) => {
  try {
    await buildProgram().parseAsync([...argv])
  } catch (e) {
    if (e instanceof CliExit) {
      process.stderr.write(`${e.message}\n`)
      process.exitCode = e.code
    } else if (e instanceof CommanderError) {
      process.exitCode = e.exitCode === 0 ? exitCodes.ok : exitCodes.usage
    } else {
      process.stderr.write(`error: ${e instanceof Error ? e.message : String(e)}\n`)
      process.exitCode = exitCodes.error
    }
  }
}
