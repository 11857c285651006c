/**
 * SQL for claims (issue 19), shared by the card reads, the board's JSON and the sessions
 * service: which sessions are live, and a session's claim and actor as the card shows them.
 * A session holds its card while it is live and its lease unexpired at the operation's time
 * (infra/clock.ts), so a lease the sweep has not reached yet holds nothing.
 */
import { liveStatuses } from "../domain/agentSession.ts"

/** `('active', 'awaitingInput', 'error')`: the predicate of the partial unique index on live sessions. */
export const LIVE = `(${liveStatuses.map((s) => `'${s}'`).join(", ")})`

/** The live, unexpired session of card `card` (an SQL expression), as alias `s`: one indexed lookup. */
export const holdingSession = (card: string, now: string): string =>
  `agent_sessions s WHERE s.card_id = ${card} AND s.status IN ${LIVE} AND s.lease_expires_at > ${now}::timestamptz`

/** A timestamptz as Date.prototype.toISOString writes it (as boardJson.ts's). */
const isoText = (column: string): string => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`

/** Session `s`'s actor as the Actor schema encodes it: type, userId, then name when it has one. */
export const actorJsonText = `concat('{"type":', to_json(s.actor_type)::text, ',"userId":"', s.user_id, '"',
  CASE WHEN s.actor_name IS NOT NULL THEN ',"name":' || to_json(s.actor_name)::text END, '}')`

/** Session `s` as a card's `claim`, JSON text byte-identical to the CardClaim schema's encoding. */
export const claimJsonText = `concat('{"sessionId":"', s.id, '","actor":', ${actorJsonText},
  ',"leaseExpiresAt":"', ${isoText("s.lease_expires_at")}, '"}')`

/** Card `c`'s claim at `now` as JSON text, or `null`: for the one-card statements. */
export const singleCardClaim = (now: string): string =>
  `COALESCE((SELECT ${claimJsonText} FROM ${holdingSession("c.id", now)}), 'null')`

/** Card `c`'s claim at `now` as a JSON value the driver parses (cardView's `claim` column). */
export const claimColumn = (now: string): string =>
  `(SELECT json_build_object('sessionId', s.id, 'actorType', s.actor_type, 'userId', s.user_id,
      'name', s.actor_name, 'leaseExpiresAt', s.lease_expires_at) FROM ${holdingSession("c.id", now)})`
