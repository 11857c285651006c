import type { BoardEvent } from "../types.ts"
import { actorView } from "../lib/actors.ts"

/**
 * An actor's name; for an agent also its mark and whom it acts for ("Claude [agent] for Ada"),
 * so an agent is never shown by a name alone (lib/actors.ts).
 */
export function ActorName({
  actor,
  members,
  strong = false
}: {
  actor: BoardEvent["actor"]
  members: ReadonlyMap<string, string>
  strong?: boolean
}) {
  const v = actorView(actor, members)
  return (
    <span className="actor" data-actor-type={actor.type}>
      {strong ? <strong>{v.name}</strong> : v.name}
      {v.agent && (
        <>
          {" "}
          <span className="agent-mark" title="An agent (an application acting for a person), not a person">
            agent
          </span>
          {v.forPerson !== undefined && <span className="agent-for"> for {v.forPerson}</span>}
        </>
      )}
    </span>
  )
}
