/** The HttpApi contract: shared by the server and the CLI's typed client; no server code. */
import { HttpApi, OpenApi } from "effect/http-api"
import { AccountsGroup } from "./groups/Accounts.ts"
import { BoardGroup } from "./groups/Board.ts"
import { CommandsGroup } from "./groups/Commands.ts"
import { DesktopGroup } from "./groups/Desktop.ts"
import { EventsGroup } from "./groups/Events.ts"
import { ForgeGroup } from "./groups/Forge.ts"
import { GrantsGroup } from "./groups/Grants.ts"
import { IntakeGroup } from "./groups/Intake.ts"
import { InvitationsGroup } from "./groups/Invitations.ts"
import { LinksGroup } from "./groups/Links.ts"
import { AgentsGroup } from "./groups/Agents.ts"
import { AgentMembersGroup } from "./groups/AgentMembers.ts"
import { SystemGroup } from "./groups/System.ts"
import { WebhooksGroup } from "./groups/Webhooks.ts"
import { WorkspacesGroup } from "./groups/Workspaces.ts"
import { MembersGroup } from "./groups/Members.ts"
import { RequestErrors } from "./middleware/RequestErrors.ts"

export class Api extends HttpApi.make("board")
  .add(SystemGroup)
  .add(AccountsGroup)
  .add(WorkspacesGroup)
  .add(MembersGroup)
  .add(InvitationsGroup)
  .add(BoardGroup)
  .add(LinksGroup)
  .add(AgentsGroup)
  .add(AgentMembersGroup)
  .add(CommandsGroup)
  .add(IntakeGroup)
  .add(GrantsGroup)
  .add(DesktopGroup)
  .add(WebhooksGroup)
  .add(EventsGroup)
  .add(ForgeGroup)
  .middleware(RequestErrors)
  .prefix("/api")
  .annotateMerge(
    OpenApi.annotations({
      title: "Board Service API",
      version: "1.0",
      description:
        "A board for human and agent teams: workspaces, projects, columns, cards, labels, subtasks and links."
    })
  ) {}
