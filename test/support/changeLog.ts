/**
 * "Nothing changed in the database", proven cheaply: row triggers, installed by the test on
 * every table of the server's database, write the name of each table a statement changed into
 * a log table of their own. `mark()` empties the log; `changed()` names the tables written to
 * since. A rolled-back write rolls its log row back too, as it leaves no change; an UPDATE
 * that leaves a row's text as it was is not a change (the WHEN clause compares `row::text`,
 * as a digest of every row's text would). Two small statements per check instead of hashing
 * every row of every table twice per request, which grew with the database and took most of
 * the suite's time (issue 29).
 *
 * What the server changes in the background, whatever the request, is judged by the columns
 * that mean something (`columns`: an UPDATE counts only when one of them changes) or by what
 * the table sums to (`summaries`: a query compared before and after; its table gets no trigger).
 */
import type { TestServer } from "./server.ts"

export interface ChangeLog {
  /** Forgets what changed so far: what `changed()` reports starts here. */
  readonly mark: () => Promise<void>
  /** The tables changed since the last `mark()`, sorted. */
  readonly changed: () => Promise<ReadonlyArray<string>>
}

const LOG = "test_change_log"

const quote = (name: string) => `"${name.replaceAll('"', '""')}"`

export const installChangeLog = async (
  server: TestServer,
  options: {
    /** table → the columns whose change counts as a change (others are background bookkeeping). */
    readonly columns?: Readonly<Record<string, ReadonlyArray<string>>>
    /** table → a query whose answer is what the table means (compared as text). */
    readonly summaries?: Readonly<Record<string, string>>
  } = {}
): Promise<ChangeLog> => {
  const columns = options.columns ?? {}
  const summaries = options.summaries ?? {}
  const tables = (
    await server.query<{ name: string }>(
      `SELECT table_name AS name FROM information_schema.tables
       WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY 1`
    )
  ).map((t) => t.name)
  for (const name of [...Object.keys(columns), ...Object.keys(summaries)])
    if (!tables.includes(name)) throw new Error(`change log: no table ${name}`)
  await server.query(`CREATE TABLE ${LOG} (name text NOT NULL)`)
  await server.query(
    `CREATE FUNCTION test_note_change() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN
       INSERT INTO ${LOG} (name) VALUES (TG_TABLE_NAME);
       RETURN NULL;
     END $$`
  )
  for (const name of tables) {
    if (summaries[name] !== undefined) continue
    const cols = columns[name]
    const compared = (row: "OLD" | "NEW") =>
      cols === undefined ? `${row}::text` : `ROW(${cols.map((c) => `${row}.${quote(c)}`).join(", ")})::text`
    await server.query(
      `CREATE TRIGGER test_change_rows AFTER INSERT OR DELETE ON ${quote(name)}
         FOR EACH ROW EXECUTE FUNCTION test_note_change()`
    )
    await server.query(
      `CREATE TRIGGER test_change_updates AFTER UPDATE ON ${quote(name)}
         FOR EACH ROW WHEN (${compared("OLD")} IS DISTINCT FROM ${compared("NEW")}) EXECUTE FUNCTION test_note_change()`
    )
    await server.query(
      `CREATE TRIGGER test_change_truncate AFTER TRUNCATE ON ${quote(name)}
         FOR EACH STATEMENT EXECUTE FUNCTION test_note_change()`
    )
  }
  const summarise = async (): Promise<Record<string, string>> => {
    const out: Record<string, string> = {}
    for (const [name, query] of Object.entries(summaries))
      out[name] = (
        await server.query<{ s: string }>(
          `SELECT coalesce(string_agg(t::text, E'\\n' ORDER BY t::text), '') AS s FROM (${query}) t`
        )
      )[0]!.s
    return out
  }
  let before: Record<string, string> = {}
  return {
    mark: async () => {
      await server.query(`DELETE FROM ${LOG}`)
      before = await summarise()
    },
    changed: async () => {
      const logged = (await server.query<{ name: string }>(`SELECT DISTINCT name FROM ${LOG}`)).map((r) => r.name)
      const after = await summarise()
      const summarised = Object.keys(after).filter((name) => after[name] !== before[name])
      return [...logged, ...summarised].sort()
    }
  }
}

/**
 * `compute()`, taken again only when a statement changed a table since it was last taken: while
 * nothing in the whole database changed, what it reads cannot have changed either. For a digest
 * that is checked after every refused request (support/accessWorld.ts), most checks become one
 * small statement instead of hashing every row again (issue 29). Marking comes before computing,
 * so a change made while it computes is seen by the next call, which computes again. Sound only
 * for a log that watches every column of what `compute` reads: one installed with `columns` or
 * `summaries` for those tables would miss the changes they leave out.
 */
export const unlessChanged = <A>(changes: ChangeLog, compute: () => Promise<A>): (() => Promise<A>) => {
  let last: { readonly value: A } | undefined
  return async () => {
    if (last !== undefined && (await changes.changed()).length === 0) return last.value
    await changes.mark()
    last = { value: await compute() }
    return last.value
  }
}
