import type { Command } from "commander"

export const registerMigrate = (program: Command) =>
  program
    .command("migrate")
    .description("apply pending database migrations and exit (serve also applies them at start)")
    .addHelpText(
      "after",
      "\nExamples:\n  board migrate\n  DATABASE_URL=postgres://postgres@127.0.0.1:5432/board board migrate\n"
    )
    .action(async () => (await import("./migrateRun.ts")).runMigrate())
