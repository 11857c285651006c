import type { Command } from "commander"

/** Operator commands on the server's database (no API key: the data directory or DATABASE_URL). */
export const registerAdmin = (program: Command) => {
  const admin = program
    .command("admin")
    .description("operator commands on the server's database (run where the server's DATA_DIR or DATABASE_URL is)")
    .addHelpText("after", "\nExamples:\n  board admin reset-password ada@example.com\n")
  admin
    .command("reset-password")
    .description("print a one-time link (valid 1 hour) that lets the account choose a new password; no mail needed")
    .argument("<email>", "the account's email")
    .addHelpText(
      "after",
      "\nExamples:\n  board admin reset-password ada@example.com\n  DATABASE_URL=postgres://… board admin reset-password ada@example.com\n"
    )
    .action(async (email: string) => (await import("./adminRun.ts")).runResetPassword(email))
  return admin
}
