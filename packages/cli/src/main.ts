/** The `board` program: operator commands and, through the API, board work from a terminal. */
import { Command, CommanderError, type OutputConfiguration } from "commander"
import { type App, liveApp } from "./support/app.ts"
import { registerAuth } from "./commands/auth/index.ts"
import { registerAuthLogin } from "./commands/auth/login.ts"
import { registerAuthSignup } from "./commands/auth/signup.ts"
import { registerAgent } from "./commands/agent/index.ts"
import { registerKey } from "./commands/key/index.ts"
import { registerBoard } from "./commands/board/index.ts"
import { registerCard } from "./commands/card/index.ts"
import { registerColumn } from "./commands/column/index.ts"
import { registerDo } from "./commands/do.ts"
import { registerEvents } from "./commands/events.ts"
import { registerIntakeToken } from "./commands/intake-token/index.ts"
import { registerWebhook } from "./commands/webhook/index.ts"
import { registerRepo } from "./commands/repo/index.ts"
import { registerShip } from "./commands/ship.ts"
import { registerIntake } from "./commands/intake.ts"
import { registerLabel } from "./commands/label/index.ts"
import { registerLink } from "./commands/link/index.ts"
import { registerWebLink } from "./commands/web-link/index.ts"
import { registerBackup } from "./commands/backup.ts"
import { registerMigrate } from "./commands/migrate.ts"
import { registerProject } from "./commands/project/index.ts"
import { registerPrompt } from "./commands/prompt.ts"
import { registerSearch } from "./commands/search.ts"
import { registerComment } from "./commands/comment/index.ts"
import { registerSubtask } from "./commands/subtask/index.ts"
import { registerWorkspace } from "./commands/workspace/index.ts"
import { registerMember } from "./commands/member/index.ts"
import { registerInvite } from "./commands/invite/index.ts"
import { registerAdmin } from "./commands/admin/index.ts"
import { registerDesktopPublish } from "./commands/desktop/publish.ts"
import { registerServe } from "./commands/serve.ts"
import { examples } from "./support/format.ts"
import { CliExit, exitCodes } from "./support/runtime.ts"
import { globalOptions } from "./support/settings.ts"
import cliPackage from "../package.json" with { type: "json" }

const programHelp =
  examples(
    "board auth signup                              # account, workspace, project and API key",
    'board card create "Fix login" --priority high',
    "board board show",
    'board card move WEB-1 "In Progress"',
    "board search login --json",
    'board do "move WEB-1 to Done"',
    'BOARD_INTAKE_KEY=svc_in_… board intake "Printer on fire"'
  ) +
  `
Server and credentials:
  The API URL is --api-url, else BOARD_API_URL, else the saved one, else http://127.0.0.1:8080/api.
  The API key is --api-key, else BOARD_API_KEY, else the one \`board auth signup|login\` saved in
  $XDG_CONFIG_HOME/board/config.json (~/.config/board/config.json when XDG_CONFIG_HOME is unset).
  A card is named by its ref (WEB-12), id or title; a project by name, ref prefix or id; a column by name.
  Each request must be answered within --timeout, else BOARD_TIMEOUT, else 30s (then exit 1).

Version:
  board --version (or -V) prints the version.

Output and exit codes:
  Data goes to stdout (JSON with --json), messages to stderr (none with --quiet); colours only on a
  terminal and never with NO_COLOR. Exit 0 ok, 1 error, 2 usage, 4 not signed in or key refused.
`

/** `app` runs the commands' Effects; tests record instead, and may capture commander's output. */
export const buildProgram = (app: App = liveApp, output?: OutputConfiguration) => {
  const program = new Command("board")
    .description("Board Service: the server and its command-line client")
    .configureOutput(output ?? {})
    .exitOverride()
    .showHelpAfterError("(run with --help for usage and examples)")
    .showSuggestionAfterError()
    .configureHelp({ showGlobalOptions: true, sortSubcommands: false })
    .addHelpText("after", programHelp)
  globalOptions(program)
  registerAuth(program, app)
  // CONTRACT.md names them `board signup` and `board login`: the same commands at the top level
  registerAuthSignup(program, app)
  registerAuthLogin(program, app)
  registerWorkspace(program, app)
  registerMember(program, app)
  registerInvite(program, app)
  registerProject(program, app)
  registerBoard(program, app)
  registerCard(program, app)
  registerColumn(program, app)
  registerSearch(program, app)
  registerEvents(program, app)
  registerLabel(program, app)
  registerSubtask(program, app)
  registerComment(program, app)
  registerLink(program, app)
  registerWebLink(program, app)
  registerPrompt(program, app)
  registerDo(program, app)
  registerAgent(program, app)
  registerKey(program, app)
  registerIntake(program, app)
  registerIntakeToken(program, app)
  registerWebhook(program, app)
  registerRepo(program, app)
  registerShip(program, app)
  registerServe(program)
  registerMigrate(program)
  registerBackup(program)
  registerAdmin(program)
  registerDesktopPublish(program)
  return program
}

export const main = async (argv: ReadonlyArray<string>) => {
  // `board search x | head -1` closes stdout early: that ends the output, it is not a crash
  process.stdout.on("error", (e: NodeJS.ErrnoException) => {
    if (e.code !== "EPIPE") throw e
  })
  // only as the first argument: `desktop publish --version 1.2.3` is that command's own option
  if (argv[2] === "--version" || argv[2] === "-V") {
    process.stdout.write(`${cliPackage.version}\n`)
    return
  }
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
