/**
 * The forge delivery scenario (issue 31): GitHub's `pull_request` delivery, signed, naming a card
 * of the board project with close intent, each request with a fresh `X-GitHub-Delivery` (so each
 * is applied, not a replay): signature check, de-duplication insert, the pull request's upsert,
 * its links and their reads, in one transaction. Target: p99 under 50 ms.
 */
import * as crypto from "node:crypto"
import type { Api } from "./api.ts"

export interface ForgeTarget {
  readonly repositoryId: string
  readonly body: string
  readonly signature: string
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
  const body = JSON.stringify({
    action: "synchronize",
    number: 42,
    pull_request: {
      number: 42,
      title: `Fixes ${card.ref}: benchmark the forge`,
      body: `Fixes ${card.ref}\n\nA pull request as GitHub sends it, trimmed.`,
      html_url: `https://github.com/${name}/pull/42`,
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
  const signature = `sha256=${crypto.createHmac("sha256", repo.webhookSecret).update(body).digest("hex")}`
  return { repositoryId: repo.id, body, signature }
}
