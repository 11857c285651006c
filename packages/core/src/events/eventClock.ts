/**
 * The event clock (migrations/0030_event_clock.sql): an event's tx is its transaction's id plus
 * an offset, zero until a restore into another PostgreSQL server needed more, so that events
 * written after a restore sort after the restored ones and the restored ones count as final.
 * The migration run sets the offset (infra/Migrations.ts).
 */

/** The offset, as SQL: every comparison of a tx with the server's own transaction ids adds it. */
export const XID_OFFSET = "(SELECT xid_offset FROM event_clock)"
