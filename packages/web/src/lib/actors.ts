/**
 * Who did something, as the pages show it (issue 28): an agent is shown as an agent, with its
 * client or agent name, an agent mark and the person it acts for, never by a name alone, so a
 * client registered as `alice` cannot pass for the person alice. An agent's actor names the
 * person it acts for (`onBehalfOf`: an agent member's creator, an OAuth client's grantor); the
 * person's name comes from the workspace's members, which the pages already read.
 */
import type { BoardEvent, Member } from "../types.ts"

type Actor = BoardEvent["actor"]

/** How the forges' names read (`{type: "system", name: "github"}` is GitHub). */
export const FORGE_NAMES: Readonly<Record<string, string>> = {
  github: "GitHub",
  gitlab: "GitLab",
  gitea: "Gitea",
  forgejo: "Forgejo"
}

export interface ActorView {
  /** The person's, the agent's (its client name) or the intake token's name. */
  readonly name: string
  readonly agent: boolean
  /** For an agent: the name of the person it acts for, when known. */
  readonly forPerson: string | undefined
}

/** Member names by user id, as the panel's sections look them up. */
export const memberNames = (members: ReadonlyArray<Member>): ReadonlyMap<string, string> =>
  new Map(members.map((m) => [m.userId as string, m.fullName || m.email]))

/** The agent members' ids (kind `agent`, issue 30): shown with the agent mark, never as people. */
export const agentMemberIds = (members: ReadonlyArray<Member>): ReadonlySet<string> =>
  new Set(members.filter((m) => m.kind === "agent").map((m) => m.userId as string))

export const actorView = (actor: Actor, members: ReadonlyMap<string, string>): ActorView => {
  const named = actor.name !== undefined && actor.name.trim() !== "" ? actor.name : undefined
  switch (actor.type) {
    case "agent": {
      // whom it acts for: `onBehalfOf` (an agent member's creator, an OAuth client's grantor);
      // events from before it name the grantor as `userId`
      const forId = actor.onBehalfOf ?? actor.userId
      return {
        name: named ?? "An agent",
        agent: true,
        forPerson: forId === undefined ? undefined : (members.get(forId) ?? "a former member")
      }
    }
    case "intake":
      return { name: named ?? "Intake", agent: false, forPerson: undefined }
    case "system":
      // a forge acts as the service, named after its provider (issue 31): "GitHub"
      return { name: (named && FORGE_NAMES[named]) ?? named ?? "The service", agent: false, forPerson: undefined }
    default:
      return {
        name: named ?? (actor.userId === undefined ? undefined : members.get(actor.userId)) ?? "Someone",
        agent: false,
        forPerson: undefined
      }
  }
}

/** The actor in a sentence: `Claude (agent for Ada Lovelace)`, `An agent for Ada`, `Ada`. */
export const actorText = (actor: Actor, members: ReadonlyMap<string, string>): string => {
  const v = actorView(actor, members)
  if (!v.agent) return v.name
  if (actor.name === undefined || actor.name.trim() === "")
    return v.forPerson === undefined ? v.name : `${v.name} for ${v.forPerson}`
  return `${v.name} (agent${v.forPerson === undefined ? "" : ` for ${v.forPerson}`})`
}
