/**
 * The write scenarios (POST /v1/cards, POST /v1/intake and the card move, on PostgreSQL or the
 * embedded database), the thin service's create and read (the floor) sending the same bodies, the
 * write-cost pairs' events-off side, and the request helpers these and the main list share.
 */
import type { LoadRequest } from "./load.ts"
import { connections } from "./options.ts"
import type { HttpScenario, ThinTarget, WriteTargets } from "./scenario-types.ts"

/** A fresh string per call from `make`, its tag unique across runs of the same scenario (e.g. a card's title). */
const numbered = (make: (tag: string) => string) => {
  let n = 0
  const run = Math.random().toString(36).slice(2, 8)
  return () => make(`${run}-${++n}`)
}

/** POST `path` with the create scenario's body (a new title each request): the API's create and the thin service's send the same JSON. */
const createSpec = (
  urlPath: string,
  apiKey: string,
  into: { readonly id: string; readonly columnId: string }
): HttpScenario["spec"] => ({
  requests: () => {
    const body = numbered((tag) =>
      JSON.stringify({ projectId: into.id, columnId: into.columnId, title: `Bench card ${tag}`, priority: "high" })
    )
    const headers = { "x-api-key": apiKey, "content-type": "application/json" }
    return [{ method: "POST", path: urlPath, headers, body: body(), setupRequest: (req) => ({ ...req, body: body() }) }]
  }
})

/** GET `paths` in turn, one a request. */
export const rotating = (paths: ReadonlyArray<string>, headers: Record<string, string>): LoadRequest => {
  let i = 0
  return { path: paths[0]!, headers, setupRequest: (req) => ({ ...req, path: paths[i++ % paths.length]! }) }
}

/**
 * POST /v1/cards, POST /v1/intake and the card move, each at N connections and at 1, against the
 * server on PostgreSQL or (ids prefixed `embedded-`) the one on the embedded database.
 */
export const writeScenarios = (w: WriteTargets, target: "server" | "embedded"): ReadonlyArray<HttpScenario> => {
  const json = { "x-api-key": w.apiKey, "content-type": "application/json" }
  const create = createSpec("/api/v1/cards", w.apiKey, w.createProject)
  const intake: HttpScenario["spec"] = {
    requests: () => {
      const body = numbered((tag) => JSON.stringify({ title: `Intake ${tag}`, description: "filed by the benchmark" }))
      const headers = { "x-intake-key": w.intakeToken, "content-type": "application/json" }
      return [
        {
          method: "POST",
          path: "/api/v1/intake",
          headers,
          body: body(),
          setupRequest: (req) => ({ ...req, body: body() })
        }
      ]
    }
  }
  const move: HttpScenario["spec"] = {
    requests: () => [
      {
        method: "POST",
        path: `/api/v1/cards/${w.moveCardIds[0]}/move`,
        headers: json,
        body: JSON.stringify({ columnId: w.moveColumnIds[1] })
      }
    ],
    // each connection owns one card of the pool and moves it to the next column, at positions 0..3
    perConnection: (c) => {
      const card = w.moveCardIds[c % w.moveCardIds.length]!
      let k = c % w.moveColumnIds.length
      const body = () => {
        k++
        return JSON.stringify({ columnId: w.moveColumnIds[k % w.moveColumnIds.length], position: k % 4 })
      }
      return [
        {
          method: "POST",
          path: `/api/v1/cards/${card}/move`,
          headers: json,
          body: body(),
          setupRequest: (req) => ({ ...req, body: body() })
        }
      ]
    }
  }
  const kinds = [
    { id: "create", label: "POST /api/v1/cards", spec: create },
    { id: "intake", label: "POST /api/v1/intake (X-Intake-Key)", spec: intake },
    { id: "move", label: `POST /api/v1/cards/{id}/move (${w.moveCardIds.length}-card pool)`, spec: move }
  ]
  const [idPrefix, labelPrefix] = target === "embedded" ? ["embedded-", "embedded: "] : ["", ""]
  return kinds.flatMap(
    ({ id, label, spec }): Array<HttpScenario> => [
      { id: `${idPrefix}${id}`, label: `${labelPrefix}${label}`, target, connections, spec },
      {
        id: `${idPrefix}${id}-1`,
        label: `${labelPrefix}${label}, 1 connection`,
        target,
        connections: 1,
        supplementary: true,
        spec
      }
    ]
  )
}

/**
 * The floor (issue 35): the thin service's create, with the body of POST /v1/cards, and its read
 * by primary key rotating over as many rows as GET /v1/cards/{id} rotates over, at the same load.
 */
export const thinScenarios = (t: ThinTarget): ReadonlyArray<HttpScenario> => [
  {
    id: "thin-create",
    label: "thin service: create (POST /cards, card + event row in one statement)",
    target: "thin",
    connections,
    spec: createSpec("/cards", t.apiKey, t.createProject)
  },
  {
    id: "thin-read",
    label: "thin service: read by id (GET /cards/{id})",
    target: "thin",
    connections,
    spec: {
      requests: () => [
        rotating(
          t.readIds.map((id) => `/cards/${id}`),
          { "x-api-key": t.apiKey }
        )
      ]
    }
  }
]

/** The write-cost pairs' other side: the same requests while a trigger drops the event rows. */
export const eventsOffScenarios = (w: WriteTargets): ReadonlyArray<HttpScenario> =>
  writeScenarios(w, "server")
    .filter((sc) => sc.id === "create" || sc.id === "move")
    .map((sc) => ({ ...sc, id: `${sc.id}-events-off`, label: `${sc.label}, event rows dropped at insert` }))
