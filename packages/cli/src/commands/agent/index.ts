import type { Command } from "commander"
import type { App } from "../../support/app.ts"
import { examples } from "../../support/format.ts"
import { registerAgentAsk } from "./ask.ts"
import { registerAgentHeartbeat } from "./heartbeat.ts"
import { registerAgentMembers } from "./members.ts"
import { registerAgentNext } from "./next.ts"
import { registerAgentRelease } from "./release.ts"
import { registerAgentReport } from "./report.ts"
import { registerAgentRun } from "./run.ts"
import { registerAgentSessions } from "./sessions.ts"

export const registerAgent = (program: Command, app: App) => {
  const agent = program
    .command("agent")
    .description(
      "agent members (create, list, keys) and working the board as an agent: claim the next card, report, heartbeat, release"
    )
    .addHelpText(
      "after",
      examples(
        'board agent next --column "To Do" --json',
        'board agent report SESSION --type thought "Reading the code"',
        "board agent heartbeat SESSION",
        "board agent release SESSION --move-to Done --status complete",
        "board agent sessions --status active",
        "board agent run --repo . --preset claude --open-pr     # a runner: cards in, pull requests out",
        "board agent create Claude && board agent key create Claude"
      )
    )
  registerAgentNext(agent, app)
  registerAgentReport(agent, app)
  registerAgentHeartbeat(agent, app)
  registerAgentRelease(agent, app)
  registerAgentSessions(agent, app)
  registerAgentRun(agent, app)
  registerAgentAsk(agent, app)
  registerAgentMembers(agent, app)
  return agent
}
