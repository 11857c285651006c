/**
 * SQL for claims (issue 19), shared by the card reads, the board's JSON and the sessions
 * service: which sessions are live, and a session's claim and actor as the card shows them.
 * A session holds its card while it is live and its lease unexpired at the operation's time
 * (infra/clock.ts), so a lease the sweep has not reached yet holds nothing.
 */
import { liveStatuses } from "../domain/agentSession.ts"
import { isoSql } from "./jsonSql.ts"

/** `('active', 'awaitingInput', 'error')`: the predicate of the partial unique index on live sessions. */
export const LIVE = `(${liveStatuses.map((s) => `'${s}'`).join(", ")})`

/** The live, unexpired session of card `card` (an SQL expression), as alias `s`: one indexed lookup. */
export const holdingSession = (card: string, now: string): string =>
  `agent_sessions s WHERE s.card_id = ${card} AND s.status IN ${LIVE} AND s.lease_expires_at > ${now}::timestamptz`

/** Session `s`'s actor as the Actor schema encodes it: type, userId, then name and onBehalfOf when it has them. */
export const actorJsonText = `concat('{"type":', to_json(s.actor_type)::text, ',"userId":"', s.user_id, '"',
  CASE WHEN s.actor_name IS NOT NULL THEN ',"name":' || to_json(s.actor_name)::text END,
  CASE WHEN s.actor_on_behalf_of IS NOT NULL THEN ',"onBehalfOf":"' || s.actor_on_behalf_of || '"' END, '}')`

/** Session `s` as a card's `claim`, JSON text byte-identical to the CardClaim schema's encoding. */
export const claimJsonText = `concat('{"sessionId":"', s.id, '","actor":', ${actorJsonText},
  ',"leaseExpiresAt":"', ${isoSql("s.lease_expires_at")}, '"}')`

/** Card `c`'s claim at `now` as JSON text, or `null`: for the one-card statements. */
export const singleCardClaim = (now: string): string =>
  `COALESCE((SELECT ${claimJsonText} FROM ${holdingSession("c.id", now)}), 'null')`
