import type { Command } from "commander"

export const registerServe = (program: Command) =>
  program
    .command("serve")
    .description("run the server (HOST, PORT, DATABASE_URL or DATA_DIR, see the README)")
    .addHelpText(
      "after",
      "\nExamples:\n  board serve\n  PORT=9000 DATA_DIR=memory: board serve\n  DATABASE_URL=postgres://postgres@127.0.0.1:5432/board board serve\n"
    )
    // the server, the core and the database drivers load only for this command
    .action(async () => (await import("./serveRun.ts")).runServe())
