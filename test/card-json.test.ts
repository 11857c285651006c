/**
 * The JSON each card keeps in its row (migrations/0031_card_json.sql, board/cardView.ts's
 * `storedCard`). Reads concatenate the stored parts, so they must follow every write, the
 * API's or anyone's SQL (the trigger writes them, not the app), and a server whose Card schema
 * differs from the one that wrote them must rewrite them before it serves (the migration run
 * does: infra/Migrations.ts), and put its trigger back when it is gone; but a build older than
 * the database leaves a newer build's parts alone. An older or a newer function is simulated by
 * one that writes a part of its own.
 */
import { Card } from "@board/core"
import { Schema } from "effect"
import { describe, expect, it } from "vitest"
import { type Backend, dialectBackends as backends, restartableDatabases } from "./support/backends.ts"
import { bootstrap, call, key } from "./support/client.ts"
import { startServer, type TestServer } from "./support/server.ts"
import { tmpDirs } from "./support/tmp.ts"

const tmpDir = tmpDirs("board-card-json-")

describe.each(backends)("the JSON a card keeps in its row, on %s", (backend: Backend) => {
  const database = restartableDatabases(backend, tmpDir)

  it("is what the card read sends: the Card schema's own JSON, byte for byte, holes filled", async () => {
    const server = await startServer({ backend, env: await database() })
    try {
      const a = await bootstrap(server.baseUrl, "cardread")
      const h = key(a.apiKey)
      const created = await call(server.baseUrl, "POST", "/v1/cards", {
        body: { projectId: a.projectId, columnId: a.columns[0]!.id, title: "Bytes ✨", assigneeIds: [a.userId] },
        headers: h
      })
      const id = created.body.id as string
      const label = await call(server.baseUrl, "POST", "/v1/labels", {
        body: { projectId: a.projectId, name: "bug", color: "#ff0000" },
        headers: h
      })
      await call(server.baseUrl, "POST", `/v1/cards/${id}/labels`, { body: { labelId: label.body.id }, headers: h })
      await call(server.baseUrl, "POST", "/v1/subtasks", { body: { cardId: id, title: "a step" }, headers: h })
      const r = await call(server.baseUrl, "GET", `/v1/cards/${id}`, { headers: h })
      expect(r.status).toBe(200)
      expect(r.headers.get("content-type")).toBe("application/json")
      // no field the schema lacks, none missing, in the schema's order: what encoding the card would send
      const card = Schema.decodeUnknownSync(Card)(JSON.parse(r.text), { onExcessProperty: "error" })
      expect(r.text).toBe(JSON.stringify(Schema.encodeSync(Card)(card)))
      expect(card).toMatchObject({
        assigneeIds: [a.userId],
        labels: [{ name: "bug" }],
        subtasks: [{ title: "a step" }]
      })
      // by ref the same bytes
      expect((await call(server.baseUrl, "GET", `/v1/cards/${card.ref}`, { headers: h })).text).toBe(r.text)
    } finally {
      await server.stop()
    }
  })

  it("follows writes made in SQL and is rewritten when the server's card shape differs", async () => {
    const env = await database()
    let server: TestServer = await startServer({ backend, env })
    try {
      const a = await bootstrap(server.baseUrl, "cardjson")
      const h = key(a.apiKey)
      const created = await call(server.baseUrl, "POST", "/v1/cards", {
        body: {
          projectId: a.projectId,
          columnId: a.columns[0]!.id,
          title: 'Quotes " and \\ and ✨',
          description: "line\nbreak\ttab \u0001",
          dueAt: "2031-02-03T04:05:06.789Z"
        },
        headers: h
      })
      expect(created.status).toBe(201)
      const id = created.body.id as string
      const card = async () => {
        const r = await call(server.baseUrl, "GET", `/v1/cards/${id}`, { headers: h })
        expect(r.status).toBe(200)
        return r.text
      }
      expect(JSON.parse(await card())).toEqual(created.body)

      // a change made by hand in SQL, as an operator might: the trigger rewrites the parts
      const title = 'Renamed by SQL: "ünï" \u001f'
      await server.query("UPDATE cards SET title = $1, due_at = NULL WHERE id = $2", [title, id])
      const renamed = JSON.parse(await card())
      expect(renamed).toEqual({ ...created.body, title, dueAt: null })
      const board = await call(server.baseUrl, "GET", `/v1/board/${a.projectId}`, { headers: h })
      expect(board.body.cards).toEqual([renamed])

      // the parts an older server's function wrote: what reads answer until they are rewritten
      await server.query(`CREATE OR REPLACE FUNCTION board_card_json() RETURNS trigger LANGUAGE plpgsql AS $fn$
        BEGIN NEW.json_2 := ',"ref":"OLD-1","title":"stale","description":null,"priority":"low","labels":'; RETURN NEW; END $fn$`)
      await server.query("UPDATE cards SET title = title WHERE id = $1", [id])
      expect(JSON.parse(await card())).toMatchObject({ ref: "OLD-1", title: "stale" })

      // a server starting on that database puts its own function back and rewrites every card
      await server.stop()
      server = await startServer({ backend, env })
      expect(JSON.parse(await card())).toEqual(renamed)
      const [fn] = await server.query<{ body: string }>(
        "SELECT prosrc AS body FROM pg_proc WHERE proname = 'board_card_json'"
      )
      expect(fn!.body).toContain("NEW.json_4 :=")

      // the trigger dropped by hand: writes leave the parts behind until a start puts it back
      await server.query("DROP TRIGGER cards_json ON cards")
      await server.query("UPDATE cards SET title = 'Written without the trigger' WHERE id = $1", [id])
      expect(JSON.parse(await card()).title).toBe(title)
      await server.stop()
      server = await startServer({ backend, env })
      expect(JSON.parse(await card()).title).toBe("Written without the trigger")

      // a database a newer build has migrated: this (older) build leaves its function and parts alone
      const newer = `CREATE OR REPLACE FUNCTION board_card_json() RETURNS trigger LANGUAGE plpgsql AS $fn$
        BEGIN NEW.json_2 := ',"ref":"NEW-1","title":"newer","description":null,"priority":"low","labels":'; RETURN NEW; END $fn$`
      await server.query(newer)
      await server.query("UPDATE cards SET title = title WHERE id = $1", [id])
      await server.query("INSERT INTO board_migrations (migration_id, name) VALUES (9999, 'a_newer_build')")
      await server.stop()
      server = await startServer({ backend, env })
      expect(JSON.parse(await card())).toMatchObject({ ref: "NEW-1", title: "newer" })
    } finally {
      await server.stop()
    }
  })
})
