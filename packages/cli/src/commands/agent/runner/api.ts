/**
 * The server as the runner uses it: the CLI's typed client (the HttpApi contract), each call a
 * Promise that fails with an `ApiFailure` telling a refusal (status and the server's message)
 * from an unreachable server (restarting: retry later).
 */
import { Effect, Exit, Cause, Predicate } from "effect"
import type { AgentSessionId, CardId, ColumnId, ProjectId } from "@board/core/contract"
import type { BoardClient } from "../../../support/client.ts"
import { apiStatus } from "../../../support/failure.ts"

export class ApiFailure extends Error {
  /** The HTTP status of a refusal; undefined when the server could not be reached. */
  readonly status: number | undefined
  constructor(message: string, status: number | undefined) {
    super(message)
    this.status = status
  }
  get unreachable() {
    return this.status === undefined || this.status >= 500 || this.status === 429
  }
}

const failureOf = (e: unknown): ApiFailure => {
  const status = apiStatus(e)
  if (status !== undefined) return new ApiFailure((e as { error: string }).error, status)
  if (Predicate.isTagged(e, "HttpClientError") && Predicate.hasProperty(e, "reason")) {
    const reason = e.reason as { _tag: string; response?: { status: number } }
    if (reason.response !== undefined)
      return new ApiFailure(`the server answered ${reason.response.status}`, reason.response.status)
    return new ApiFailure(`cannot reach the server (${reason._tag})`, undefined)
  }
  return new ApiFailure(e instanceof Error ? e.message : String(e), 0)
}

const run = async <A, E>(effect: Effect.Effect<A, E>): Promise<A> => {
  const exit = await Effect.runPromiseExit(effect)
  if (Exit.isSuccess(exit)) return exit.value
  throw failureOf(Cause.squash(exit.cause))
}

export type RunnerApi = ReturnType<typeof runnerApi>

export const runnerApi = (client: BoardClient) => ({
  board: (projectId: string) => run(client.board.board({ params: { projectId: projectId as ProjectId }, query: {} })),
  claimNext: (projectId: string, ttlSeconds: number) =>
    run(client.agents.claimNext({ params: { projectId: projectId as ProjectId }, payload: { ttlSeconds } })).then(
      (taken) => (taken === undefined || taken === null ? undefined : taken)
    ),
  claim: (cardId: string, ttlSeconds: number) =>
    run(client.agents.claim({ params: { id: cardId as CardId }, payload: { ttlSeconds } })),
  heartbeat: (sessionId: string) => run(client.agents.heartbeat({ params: { id: sessionId as AgentSessionId } })),
  report: (sessionId: string, type: "thought" | "action" | "elicitation" | "response" | "error", body: string) =>
    run(client.agents.report({ params: { id: sessionId as AgentSessionId }, payload: { type, body } })),
  release: (sessionId: string, moveTo?: string) =>
    run(
      client.agents.release({
        params: { id: sessionId as AgentSessionId },
        payload: { status: "released", ...(moveTo !== undefined ? { moveTo: moveTo as ColumnId } : {}) }
      })
    ),
  move: (cardId: string, columnId: string) =>
    run(client.board.moveCard({ params: { id: cardId as CardId }, payload: { columnId: columnId as ColumnId } })),
  prompt: (cardId: string) =>
    run(client.links.prompt({ params: { id: cardId as CardId }, query: { variant: "execute" } })).then((p) => p.prompt),
  session: (sessionId: string) =>
    run(client.agents.session({ params: { id: sessionId as AgentSessionId }, query: { limit: 500 } })),
  cardSessions: (cardId: string) => run(client.agents.cardSessions({ params: { id: cardId as CardId } })),
  comments: async (cardId: string) => {
    const first = await run(client.board.listComments({ params: { id: cardId as CardId }, query: { limit: 500 } }))
    if (first.total <= first.comments.length) return first.comments
    // the newest are what an answer is looked for in
    const last = await run(
      client.board.listComments({
        params: { id: cardId as CardId },
        query: { limit: 500, offset: first.total - 500 }
      })
    )
    return last.comments
  }
})
