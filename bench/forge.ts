/**
 * The forge delivery scenario (issue 31): GitHub's `pull_request` delivery, signed, naming a card
 * of the board project with close intent, each request another pull request with a fresh
 * `X-GitHub-Delivery` (so each is applied, not a replay): signature check, de-duplication insert,
 * the pull request's upsert, its link and their reads, in one transaction. (Deliveries of one
 * pull request take its row lock in turn, as they should; many at once are many pull requests.)
 * A forge delivers one hook's events one at a time, waiting for each answer, so the scenario runs
 * at 10 connections (ten hooks at once; scenarios.ts `FORGE_CONNECTIONS`) and at 1 (one delivery's own
 * latency), not at BENCH_CONNECTIONS. Target: p99 under 50 ms at 10 connections.
 *
 * Round trips of one delivery (counted with log_statement = all on a private database): the
 * connection's SELECT (repository and project), BEGIN, the delivery id's insert, one statement
 * for the pull request (its previous state locked, the upsert, the links, the cards' lock), one
 * for the cards' marks and the links' read, the events' insert, COMMIT: 7 (10 before); the
 * moves, when the automation makes one, after the commit.
 */
import * as crypto from "node:crypto"
import type { Api } from "./api.ts"

export interface ForgeTarget {
  readonly repositoryId: string
  /** The `n`th delivery: its body and headers. */
  readonly delivery: (n: number) => { readonly body: string; readonly headers: Record<string, string> }
}

/** Connects a GitHub repository to the project and builds the delivery naming `cardId`'s ref. */
export const seedForge = async (api: Api, apiKey: string, projectId: string, cardId: string): Promise<ForgeTarget> => {
  const auth = { apiKey }
  const card = await api.call<{ ref: string }>("GET", `/v1/cards/${cardId}`, { auth })
  const name = `bench/forge-${crypto.randomBytes(4).toString("hex")}`
  const repo = await api.call<{ id: string; webhookSecret: string }>("POST", `/v1/projects/${projectId}/repositories`, {
    auth,
    body: { provider: "github", name },
    expect: [201]
  })
  // the fields GitHub's pull_request payload carries that the service reads, and some it does not
  const bodyOf = (number: number) =>
    JSON.stringify({
      action: "synchronize",
      number,
      pull_request: {
        number,
        title: `Fixes ${card.ref}: benchmark the forge`,
        body: `Fixes ${card.ref}\n\nA pull request as GitHub sends it, trimmed.`,
        html_url: `https://github.com/${name}/pull/${number}`,
        state: "open",
        draft: false,
        merged: false,
        head: { ref: `${card.ref.toLowerCase()}-bench`, sha: "0123456789abcdef0123456789abcdef01234567" },
        base: { ref: "main" },
        user: { login: "octocat", id: 1 },
        labels: []
      },
      repository: { full_name: name, private: false },
      sender: { login: "octocat" }
    })
  const delivery = (n: number) => {
    const body = bodyOf(n)
    return {
      body,
      headers: {
        "content-type": "application/json",
        "x-github-event": "pull_request",
        "x-github-delivery": crypto.randomUUID(),
        "x-hub-signature-256": `sha256=${crypto.createHmac("sha256", repo.webhookSecret).update(body).digest("hex")}`
      }
    }
  }
  return { repositoryId: repo.id, delivery }
}
