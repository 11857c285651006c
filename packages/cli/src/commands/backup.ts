import type { Command } from "commander"

export const registerBackup = (program: Command) => {
  program
    .command("backup")
    .description(
      "write the database, the generated secret and local desktop builds to FILE (works beside a running server)"
    )
    .argument("<file>", "the backup file to write (replaced if it exists)")
    .addHelpText(
      "after",
      "\nExamples:\n  board backup /var/backups/board-$(date +%F).tar\n  DATABASE_URL=postgres://… board backup board.tar   # runs pg_dump\n"
    )
    .action(async (file: string) => (await import("./backupRun.ts")).runBackup(file))
  program
    .command("restore")
    .description("restore a backup into an empty DATA_DIR (or an empty DATABASE_URL database); no server may run on it")
    .argument("<file>", "a file written by `board backup`")
    .addHelpText(
      "after",
      "\nExamples:\n  DATA_DIR=/srv/board-new board restore board.tar\n  DATABASE_URL=postgres://…/board_new board restore board.tar   # runs pg_restore\n"
    )
    .action(async (file: string) => (await import("./backupRun.ts")).runRestore(file))
}
