/**
 * The scenarios of the run on PostgreSQL, in the order they run within their phase: the baseline,
 * the framework, the reads (health, card, board, search), links, MCP, the writes, claim-next and
 * forge deliveries, and the scaling rows (board sizes, search corpus sizes) around them.
 */
import type { ForgeTarget } from "./forge.ts"
import type { LoadRequest } from "./load.ts"
import { count } from "./log.ts"
import { connections, queueCards, sizes } from "./options.ts"
import type { Scenario, WriteTargets } from "./scenario-types.ts"
import type { Seeded } from "./seed.ts"
import { searchQueries } from "./words.ts"
import { rotating, writeScenarios } from "./write-scenarios.ts"

/** Hooks delivering at once in the forge scenario (bench/forge.ts says why not BENCH_CONNECTIONS). */
const FORGE_CONNECTIONS = 10

export const scenarios = (
  s: Seeded & WriteTargets & { mcpSession: string; queue: { projectId: string; columnId: string }; forge: ForgeTarget }
): ReadonlyArray<Scenario> => {
  const key = { "x-api-key": s.apiKey }
  const json = { ...key, "content-type": "application/json" }
  const rotate = (paths: ReadonlyArray<string>) => rotating(paths, key)
  const searchPaths = searchQueries.map((q) => `/api/v1/search?q=${encodeURIComponent(q)}`)
  const boardPath = `/api/v1/board/${s.boardProjectId}`
  const board: LoadRequest = { path: boardPath, headers: key }
  const [searchSmall, searchMain, searchLarge] = sizes.searchScale
  const [boardSmall, , boardLarge] = sizes.boardScale
  const scaleBoard = (id: string, cards: number): Scenario => {
    const b = s.scaleBoards.find((x) => x.cards === cards)!
    const p = `/api/v1/board/${b.projectId}`
    return {
      id,
      label: `GET /api/v1/board/{id} (${count(cards)} cards), 1 connection`,
      target: "server",
      connections: 1,
      scale: { kind: "board", cards, probe: [p] },
      spec: { requests: () => [{ path: p, headers: key }] }
    }
  }
  const scaleSearch = (id: string, cards: number): Scenario => ({
    id,
    label: `GET /api/v1/search?q= (${count(cards)} cards), 1 connection`,
    target: "server",
    connections: 1,
    scale: { kind: "search", cards, probe: searchPaths },
    spec: { requests: () => [rotate(searchPaths)] }
  })
  return [
    // run first, on the corpus as seeded (before it grows)
    scaleSearch("search-10k-cards", searchSmall),
    {
      id: "baseline",
      label: "baseline: node:http hello",
      target: "baseline",
      connections,
      spec: { requests: () => [{ path: "/" }] }
    },
    // the framework's ceiling: what the health row would be with none of our middleware
    {
      id: "framework",
      label: "framework: Effect HttpApi hello (GET /api/v1/health)",
      target: "framework",
      connections,
      spec: { requests: () => [{ path: "/api/v1/health" }] }
    },
    {
      id: "health",
      label: "GET /api/v1/health",
      target: "server",
      connections,
      spec: { requests: () => [{ path: "/api/v1/health" }] }
    },
    {
      id: "card",
      label: "GET /api/v1/cards/{id} (X-API-Key)",
      target: "server",
      connections,
      spec: { requests: () => [rotate(s.boardCardIds.map((id) => `/api/v1/cards/${id}`))] }
    },
    {
      id: "board",
      label: `GET /api/v1/board/{id} (${count(sizes.board)} cards)`,
      target: "server",
      connections,
      spec: { requests: () => [board] }
    },
    {
      id: "board-1",
      label: `GET /api/v1/board/{id} (${count(sizes.board)} cards), 1 connection`,
      target: "server",
      connections: 1,
      supplementary: true,
      scale: { kind: "board", cards: sizes.board, probe: [boardPath] },
      spec: { requests: () => [board] }
    },
    {
      id: "search",
      label: `GET /api/v1/search?q= (${count(searchMain)} cards, ${searchQueries.length} queries)`,
      target: "server",
      connections,
      spec: { requests: () => [rotate(searchPaths)] }
    },
    {
      id: "search-1",
      label: `GET /api/v1/search?q= (${count(searchMain)} cards), 1 connection`,
      target: "server",
      connections: 1,
      supplementary: true,
      scale: { kind: "search", cards: searchMain, probe: searchPaths },
      spec: { requests: () => [rotate(searchPaths)] }
    },
    ...(
      [
        ["link", connections, false],
        ["link-1", 1, true]
      ] as const
    ).map(
      ([id, conns, supplementary]): Scenario => ({
        id,
        label: `POST /api/v1/projects/{id}/links (${count(sizes.board)}-card board)${conns === 1 ? ", 1 connection" : ""}`,
        target: "server",
        connections: conns,
        supplementary,
        spec: {
          requests: () => {
            let n = 0
            const run = Math.random().toString(36).slice(2, 8)
            // a new page each time: every submission is stored and rated against the whole board
            const body = () =>
              JSON.stringify({
                url: `https://docs.example.com/${run}/${++n}?utm_source=bench`,
                title: "Login timeout fix notes",
                note: "session handling and retries",
                tags: ["auth", "login"]
              })
            return [
              {
                method: "POST",
                path: `/api/v1/projects/${s.boardProjectId}/links`,
                headers: json,
                body: body(),
                setupRequest: (req) => ({ ...req, body: body() })
              }
            ]
          }
        }
      })
    ),
    {
      id: "mcp",
      label: "POST /api/mcp tools/call show_card (X-API-Key)",
      target: "server",
      connections,
      spec: {
        requests: () => {
          let n = 0
          const headers = {
            ...json,
            accept: "application/json, text/event-stream",
            "mcp-session-id": s.mcpSession,
            "mcp-protocol-version": "2025-06-18"
          }
          const body = () =>
            JSON.stringify({
              jsonrpc: "2.0",
              id: ++n,
              method: "tools/call",
              params: { name: "show_card", arguments: { card: s.boardCardIds[n % s.boardCardIds.length] } }
            })
          return [
            {
              method: "POST",
              path: "/api/mcp",
              headers,
              body: body(),
              setupRequest: (req) => ({ ...req, body: body() })
            }
          ]
        }
      }
    },
    ...writeScenarios(s, "server"),
    {
      id: "claim-next",
      label: `POST /api/v1/projects/{id}/claim-next (${count(queueCards)}-card backlog)`,
      target: "server",
      connections,
      spec: {
        requests: () => [
          {
            method: "POST",
            path: `/api/v1/projects/${s.queue.projectId}/claim-next`,
            headers: json,
            // an agent's usual call: the next card of one column ("take the next card from To Do")
            body: JSON.stringify({ columnId: s.queue.columnId, ttlSeconds: 3600 })
          }
        ]
      }
    },
    // A forge sends one hook's deliveries one at a time (GitHub, GitLab, Gitea and Forgejo each
    // deliver a repository's events in turn, waiting for each answer), so a connection's load is
    // a few repositories at once, not 50: the target is read at 10 connections (ten hooks
    // delivering together), and the 1-connection row is one delivery's own latency.
    ...(
      [
        ["forge", FORGE_CONNECTIONS, false],
        ["forge-1", 1, true]
      ] as const
    ).map(
      ([id, conns, supplementary]): Scenario => ({
        id,
        label: `POST /api/v1/forge-hooks/{id} (GitHub pull_request, signed, a new pull request each), ${conns === 1 ? "1 connection" : `${conns} connections`}`,
        target: "server",
        connections: conns,
        supplementary,
        spec: {
          requests: () => {
            // numbers unique across runs of the scenario, so every delivery is a new pull request
            let n = Math.floor(Math.random() * 1_000_000) * 1_000
            const first = s.forge.delivery(++n)
            return [
              {
                method: "POST",
                path: `/api/v1/forge-hooks/${s.forge.repositoryId}`,
                headers: first.headers,
                body: first.body,
                setupRequest: (req) => ({ ...req, ...s.forge.delivery(++n) })
              }
            ]
          }
        }
      })
    ),
    // after the main scenarios: the other board sizes, then the corpus grown to its largest size
    scaleBoard("board-100-cards", boardSmall),
    scaleBoard("board-10000-cards", boardLarge),
    scaleSearch("search-1m-cards", searchLarge)
  ]
}
