/**
 * Forge deliveries for the tests: GitHub's own example payloads (`@octokit/webhooks-examples`),
 * signed with GitHub's own `@octokit/webhooks-methods`; GitLab, Gitea and Forgejo signed as their
 * documentation says (docs/forges.md names the shapes).
 */
import { sign } from "@octokit/webhooks-methods"
import * as crypto from "node:crypto"
import { createRequire } from "node:module"
import { call } from "./client.ts"

const examples = createRequire(import.meta.url)("@octokit/webhooks-examples") as ReadonlyArray<{
  readonly name: string
  readonly examples: ReadonlyArray<unknown>
}>

/** A deep copy of GitHub's example of `event` that `pick` chooses (the first when none given). */
export const githubExample = (event: string, pick: (p: any) => boolean = () => true): any => {
  const found = examples.find((e) => e.name === event)
  const example = found?.examples.find(pick)
  if (example === undefined) throw new Error(`no example of ${event}`)
  return structuredClone(example)
}

export const deliveryId = () => crypto.randomUUID()

export const sendGithub = async (
  base: string,
  repositoryId: string,
  secret: string,
  event: string,
  payload: unknown,
  options: { delivery?: string; signature?: string | null } = {}
) => {
  const raw = JSON.stringify(payload)
  const signature = options.signature === undefined ? await sign(secret, raw) : options.signature
  return call(base, "POST", `/v1/forge-hooks/${repositoryId}`, {
    raw,
    headers: {
      "content-type": "application/json",
      "x-github-event": event,
      "x-github-delivery": options.delivery ?? deliveryId(),
      ...(signature === null ? {} : { "x-hub-signature-256": signature })
    }
  })
}

export const sendGitlab = (base: string, repositoryId: string, token: string | null, event: string, payload: unknown) =>
  call(base, "POST", `/v1/forge-hooks/${repositoryId}`, {
    raw: JSON.stringify(payload),
    headers: {
      "content-type": "application/json",
      "x-gitlab-event": event,
      "x-gitlab-event-uuid": deliveryId(),
      ...(token === null ? {} : { "x-gitlab-token": token })
    }
  })

export const sendGitea = (
  base: string,
  repositoryId: string,
  secret: string,
  event: string,
  payload: unknown,
  flavour: "gitea" | "forgejo"
) => {
  const raw = JSON.stringify(payload)
  const hmac = crypto.createHmac("sha256", secret).update(raw).digest("hex")
  const name = flavour === "gitea" ? "Gitea" : "Forgejo"
  return call(base, "POST", `/v1/forge-hooks/${repositoryId}`, {
    raw,
    headers: {
      "content-type": "application/json",
      [`x-${flavour}-event`]: event,
      [`x-${flavour}-delivery`]: deliveryId(),
      [`X-${name}-Signature`]: hmac
    }
  })
}
