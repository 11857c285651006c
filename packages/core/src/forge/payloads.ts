/**
 * What a forge's webhook says, read leniently into one shape for every provider: only the fields
 * the service uses are read, unknown fields are ignored (forges add fields every month), and a
 * field of an unexpected type reads as missing. The shapes each provider sends:
 * - GitHub: the webhook event payloads of docs.github.com ("Webhook events and payloads"), as in
 *   `@octokit/webhooks-examples`: pull_request, pull_request_review, check_suite, check_run,
 *   status, push, deployment_status.
 * - GitLab: "Webhook events" of docs.gitlab.com: Merge Request Hook (`object_attributes` with
 *   `iid`, `state`, `action`, `draft`, `last_commit`, `merge_commit_sha`; `reviewers[].state`),
 *   Pipeline Hook (`object_attributes.sha`, `status`, `merge_request.iid`), Push Hook.
 * - Gitea and Forgejo: their `modules/structs/hook.go` (PullRequestPayload with `review`,
 *   CommitStatusPayload for `status`, PushPayload); review events are named
 *   `pull_request_approved`, `pull_request_rejected` (or `pull_request_review_*`).
 */
import type { CheckState, ForgeProvider, PullRequestState, ReviewState } from "../domain/forge.ts"

export interface PullRequestFacts {
  readonly number: number
  readonly title: string
  readonly body: string
  readonly url: string
  readonly branch: string
  readonly state: PullRequestState
  readonly headSha: string | null
  readonly mergeCommitSha: string | null
  readonly mergedAt: string | null
}

export interface ReviewFacts {
  readonly state: ReviewState | null
  readonly body: string
  readonly url: string | null
  readonly reviewer: string | null
}

export type ForgeChange =
  | {
      readonly kind: "pull_request"
      readonly repository: string | undefined
      readonly pr: PullRequestFacts
      readonly review?: ReviewFacts | undefined
    }
  | {
      readonly kind: "check"
      readonly repository: string | undefined
      readonly sha: string
      readonly name: string
      readonly state: CheckState
      readonly url: string | null
      /** Pull request numbers the forge names with the check, if any (besides the head commit). */
      readonly numbers: ReadonlyArray<number>
    }
  | {
      readonly kind: "push"
      readonly repository: string | undefined
      readonly commits: ReadonlyArray<{ readonly sha: string; readonly message: string; readonly url: string | null }>
    }
  | {
      readonly kind: "deployment"
      readonly repository: string | undefined
      readonly environment: string
      readonly sha: string
    }
  | { readonly kind: "ignored" }

/** A payload that cannot be read: answered 400 with `message`. */
export class UnreadablePayload extends Error {}

type Json = Record<string, unknown>

const obj = (v: unknown): Json => (v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Json) : {})
const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined)
const num = (v: unknown): number | undefined =>
  typeof v === "number" && Number.isSafeInteger(v)
    ? v
    : typeof v === "string" && /^\d+$/.test(v)
      ? Number(v)
      : undefined
const arr = (v: unknown): ReadonlyArray<unknown> => (Array.isArray(v) ? v : [])
const isoOrNull = (v: unknown): string | null => {
  const s = str(v)
  if (s === undefined) return null
  const t = Date.parse(s)
  return Number.isNaN(t) ? null : new Date(t).toISOString()
}

const need = <A>(value: A | undefined, what: string): A => {
  if (value === undefined) throw new UnreadablePayload(`the payload lacks ${what}`)
  return value
}

const ignored: ForgeChange = { kind: "ignored" }

/** GitHub's and Gitea's check words, in three states. */
const checkState = (status: string | undefined, conclusion: string | undefined): CheckState => {
  if (status !== undefined && status !== "completed") return "pending"
  switch ((conclusion ?? "").toLowerCase()) {
    case "success":
    case "neutral":
    case "skipped":
      return "success"
    case "":
      return "pending"
    default:
      return "failure"
  }
}

const statusState = (state: string | undefined): CheckState => {
  switch ((state ?? "").toLowerCase()) {
    case "success":
    case "warning":
    case "skipped":
      return "success"
    case "failure":
    case "failed":
    case "error":
    case "canceled":
    case "cancelled":
      return "failure"
    default:
      return "pending"
  }
}

const reviewState = (state: string | undefined): ReviewState | null => {
  const s = (state ?? "").toLowerCase()
  if (s === "approved" || s.endsWith("_approved")) return "approved"
  if (s === "changes_requested" || s === "request_changes" || s === "requested_changes" || s.endsWith("_rejected"))
    return "changes_requested"
  return null
}

// GitHub, Gitea and Forgejo share the pull request's shape
const githubLikePr = (pr: Json): PullRequestFacts => {
  const head = obj(pr.head)
  const merged = pr.merged === true || str(pr.merged_at) !== undefined
  const state: PullRequestState =
    str(pr.state) === "closed"
      ? merged
        ? "merged"
        : "closed"
      : merged
        ? "merged"
        : pr.draft === true
          ? "draft"
          : "open"
  return {
    number: need(num(pr.number), "pull_request.number"),
    title: str(pr.title) ?? "",
    body: str(pr.body) ?? "",
    url: str(pr.html_url) ?? str(pr.url) ?? "",
    branch: str(head.ref) ?? "",
    state,
    headSha: str(head.sha) ?? null,
    mergeCommitSha: merged ? (str(pr.merge_commit_sha) ?? null) : null,
    mergedAt: merged ? isoOrNull(pr.merged_at) : null
  }
}

/** A commit status (GitHub's `status` event; Gitea and Forgejo send the same shape). */
const statusOf = (repository: string | undefined, p: Json): ForgeChange => ({
  kind: "check",
  repository,
  sha: need(str(p.sha), "sha"),
  name: `status:${str(p.context) ?? "default"}`,
  state: statusState(str(p.state)),
  url: str(p.target_url) ?? null,
  numbers: []
})

const pushOf = (repository: string | undefined, payload: Json): ForgeChange => ({
  kind: "push",
  repository,
  commits: arr(payload.commits).flatMap((c) => {
    const sha = str(obj(c).id)
    return sha === undefined ? [] : [{ sha, message: str(obj(c).message) ?? "", url: str(obj(c).url) ?? null }]
  })
})

const github = (event: string, p: Json): ForgeChange => {
  const repository = str(obj(p.repository).full_name)
  switch (event) {
    case "pull_request":
      return { kind: "pull_request", repository, pr: githubLikePr(need(p.pull_request as Json, "pull_request")) }
    case "pull_request_review": {
      const review = obj(p.review)
      return {
        kind: "pull_request",
        repository,
        pr: githubLikePr(obj(need(p.pull_request, "pull_request"))),
        review: {
          state: reviewState(str(review.state)),
          body: str(review.body) ?? "",
          url: str(review.html_url) ?? null,
          reviewer: str(obj(review.user).login) ?? null
        }
      }
    }
    case "check_suite":
    case "check_run": {
      const check = obj(need(p[event], event))
      const name = event === "check_run" ? str(check.name) : str(obj(check.app).name)
      return {
        kind: "check",
        repository,
        sha: need(str(check.head_sha), `${event}.head_sha`),
        name: `${event === "check_suite" ? "suite" : "run"}:${name ?? "checks"}`,
        state: checkState(str(check.status), str(check.conclusion)),
        url: str(check.html_url) ?? str(check.details_url) ?? null,
        numbers: arr(check.pull_requests).flatMap((r) => num(obj(r).number) ?? [])
      }
    }
    case "status":
      return statusOf(repository, p)
    case "push":
      return pushOf(repository, p)
    case "deployment_status": {
      const status = obj(p.deployment_status)
      const deployment = obj(p.deployment)
      if (str(status.state) !== "success") return ignored
      return {
        kind: "deployment",
        repository,
        environment: str(status.environment) ?? str(deployment.environment) ?? "production",
        sha: need(str(deployment.sha), "deployment.sha")
      }
    }
    default:
      return ignored
  }
}

const gitlab = (event: string, p: Json): ForgeChange => {
  const repository = str(obj(p.project).path_with_namespace)
  const kind = str(p.object_kind) ?? event
  const attributes = obj(p.object_attributes)
  switch (kind) {
    case "merge_request":
    case "Merge Request Hook": {
      const state = str(attributes.state)
      const draft = attributes.draft === true || attributes.work_in_progress === true
      const action = str(attributes.action)
      const requested = arr(p.reviewers).some((r) => reviewState(str(obj(r).state)) === "changes_requested")
      const review: ReviewFacts | undefined =
        action === "approved" || action === "approval"
          ? { state: "approved", body: "", url: null, reviewer: str(obj(p.user).username) ?? null }
          : requested
            ? { state: "changes_requested", body: "", url: null, reviewer: null }
            : action === "unapproved" || action === "unapproval"
              ? { state: null, body: "", url: null, reviewer: null }
              : undefined
      const merged = state === "merged"
      return {
        kind: "pull_request",
        repository,
        pr: {
          number: need(num(attributes.iid), "object_attributes.iid"),
          title: str(attributes.title) ?? "",
          body: str(attributes.description) ?? "",
          url: str(attributes.url) ?? "",
          branch: str(attributes.source_branch) ?? "",
          state: merged ? "merged" : state === "closed" || state === "locked" ? "closed" : draft ? "draft" : "open",
          headSha: str(obj(attributes.last_commit).id) ?? null,
          mergeCommitSha: merged ? (str(attributes.merge_commit_sha) ?? null) : null,
          mergedAt: merged ? (isoOrNull(attributes.merged_at) ?? isoOrNull(attributes.updated_at)) : null
        },
        review
      }
    }
    case "pipeline":
    case "Pipeline Hook": {
      const mr = obj(p.merge_request)
      return {
        kind: "check",
        repository,
        sha: need(str(attributes.sha), "object_attributes.sha"),
        name: "pipeline",
        state: statusState(str(attributes.status)),
        url: str(attributes.url) ?? null,
        numbers: num(mr.iid) === undefined ? [] : [num(mr.iid)!]
      }
    }
    case "push":
    case "Push Hook":
      return pushOf(repository, p)
    default:
      return ignored
  }
}

const gitea = (event: string, p: Json): ForgeChange => {
  const repository = str(obj(p.repository).full_name)
  if (event === "pull_request" || event.startsWith("pull_request_")) {
    if (p.pull_request === undefined) return ignored
    const pr = githubLikePr(obj(p.pull_request))
    const review = obj(p.review)
    const state = reviewState(event) ?? reviewState(str(review.type))
    return {
      kind: "pull_request",
      repository,
      pr,
      review:
        state === null && p.review === undefined
          ? undefined
          : { state, body: str(review.content) ?? "", url: null, reviewer: str(obj(p.sender).login) ?? null }
    }
  }
  switch (event) {
    case "status":
      return statusOf(repository, p)
    case "push":
      return pushOf(repository, p)
    default:
      return ignored
  }
}

/** The change a delivery describes; throws UnreadablePayload when a read event lacks what it needs. */
export const readPayload = (provider: ForgeProvider, event: string, payload: unknown): ForgeChange => {
  const p = obj(payload)
  switch (provider) {
    case "github":
      return github(event, p)
    case "gitlab":
      return gitlab(event, p)
    case "gitea":
    case "forgejo":
      return gitea(event, p)
  }
}
