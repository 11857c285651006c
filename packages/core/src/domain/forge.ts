/**
 * From card to shipped change (issue 31, CONTRACT.md): repositories connected to a project, the
 * pull requests their forges report on a card, and deployments. The same schemas serve the HTTP
 * contract, the CLI, MCP and the core's views.
 */
import { Schema } from "effect"
import { CardId, Id, ProjectId } from "./ids.ts"
import { Name, NonBlank, Timestamp } from "./text.ts"

export const forgeProviders = ["github", "gitlab", "gitea", "forgejo"] as const
export const ForgeProvider = Schema.Literals(forgeProviders)
export type ForgeProvider = typeof ForgeProvider.Type

/** How a provider is written for people ("moved to Done by GitHub"). */
export const providerNames: Record<ForgeProvider, string> = {
  github: "GitHub",
  gitlab: "GitLab",
  gitea: "Gitea",
  forgejo: "Forgejo"
}

export const pullRequestStates = ["open", "draft", "merged", "closed"] as const
export const PullRequestState = Schema.Literals(pullRequestStates)
export type PullRequestState = typeof PullRequestState.Type

export const checkStates = ["pending", "success", "failure"] as const
export const CheckState = Schema.Literals(checkStates)
export type CheckState = typeof CheckState.Type

export const reviewStates = ["approved", "changes_requested"] as const
export const ReviewState = Schema.Literals(reviewStates)
export type ReviewState = typeof ReviewState.Type

/**
 * The board card's compact mark of its linked pull requests (CONTRACT.md "seen everywhere"):
 * `checks_failing` when one that is not closed has failing checks, else `open` when one is open
 * or draft, else `merged` when one is merged; null without such a pull request. Kept on the card
 * row by each delivery that changes a linked pull request (migrations/0027_pull_request_mark.sql).
 */
export const pullRequestMarks = ["open", "merged", "checks_failing"] as const
export const PullRequestMark = Schema.Literals(pullRequestMarks)
export type PullRequestMark = typeof PullRequestMark.Type

/** Why a forge's automation moved a card: the pull request and what it did (`card.moved`'s `data.cause`). */
export const MoveCause = Schema.Struct({
  /** `owner/repo`, or a GitLab path. */
  repository: Schema.String,
  number: Schema.Int,
  action: Schema.Literals(["opened", "merged"])
}).annotate({
  identifier: "MoveCause",
  description: "The pull request whose opening or merge made a forge's automation move the card."
})
export type MoveCause = typeof MoveCause.Type

export const Repository = Schema.Struct({
  id: Id,
  projectId: ProjectId,
  provider: ForgeProvider,
  /** `owner/repo`, or a GitLab project's path (`group/sub/project`). */
  name: Schema.String,
  /** Where the forge sends its webhook: `PUBLIC_URL/api/v1/forge-hooks/<id>`. */
  webhookUrl: Schema.String,
  createdAt: Timestamp
}).annotate({
  identifier: "Repository",
  description: "A forge repository connected to a project: its pull requests and commits link to the project's cards."
})
export type Repository = typeof Repository.Type

export const RepositoryWithSecret = Schema.Struct({
  ...Repository.fields,
  /** The webhook's secret (`whsec_…`), shown this once only. */
  webhookSecret: Schema.String
}).annotate({
  identifier: "RepositoryWithSecret",
  description: "A newly connected repository with its webhook secret, shown this once only."
})
export type RepositoryWithSecret = typeof RepositoryWithSecret.Type

export const PullRequest = Schema.Struct({
  repositoryId: Id,
  provider: ForgeProvider,
  number: Schema.Int,
  title: Schema.String,
  /** Its web page on the forge. */
  url: Schema.String,
  branch: Schema.String,
  state: PullRequestState,
  /** Whether it names the card after a closing word (`Fixes WEB-12`). */
  closes: Schema.Boolean,
  /** The combined state of the checks on its head commit, or null when none reported. */
  checks: Schema.NullOr(CheckState),
  review: Schema.NullOr(ReviewState),
  mergeCommitSha: Schema.NullOr(Schema.String),
  mergedAt: Schema.NullOr(Timestamp),
  updatedAt: Timestamp
}).annotate({
  identifier: "PullRequest",
  description: "A pull request (or GitLab merge request) that names a card, as its forge last reported it."
})
export type PullRequest = typeof PullRequest.Type

export const Deployment = Schema.Struct({
  id: Id,
  environment: Schema.String,
  shippedCardIds: Schema.Array(CardId),
  createdAt: Timestamp
}).annotate({
  identifier: "Deployment",
  description: "Commits shipped to an environment, and the cards they shipped."
})
export type Deployment = typeof Deployment.Type

// Inputs

/** `owner/repo`, or a GitLab path: segments of letters, digits, `.`, `_` and `-`. */
export const RepositoryName = NonBlank(300)
  .check(
    Schema.isPattern(/^[A-Za-z0-9_.-]+(?:\/[A-Za-z0-9_.-]+)+$/u, {
      message: "expected owner/repo (or a GitLab path such as group/sub/project)"
    })
  )
  .annotate({ examples: ["acme/website"] })

export const RepositoryCreate = Schema.Struct({ provider: ForgeProvider, name: RepositoryName }).annotate({
  examples: [{ provider: "github", name: "acme/website" }]
})
export type RepositoryCreate = typeof RepositoryCreate.Type

/** A commit id: 7 to 64 hex digits (SHA-1 or SHA-256, abbreviated or whole). */
export const CommitSha = Schema.String.check(
  Schema.isPattern(/^[0-9a-fA-F]{7,64}$/u, { message: "expected a commit id (7 to 64 hex digits)" })
).annotate({ examples: ["9fceb02d0ae598e95dc970b74767f19372d61af8"] })

export const DEPLOYMENT_COMMITS_MAX = 10_000

export const DeploymentCreate = Schema.Struct({
  environment: Name,
  commits: Schema.Array(CommitSha).check(
    Schema.isMaxLength(DEPLOYMENT_COMMITS_MAX, { message: `at most ${DEPLOYMENT_COMMITS_MAX} commits` })
  )
})
export type DeploymentCreate = typeof DeploymentCreate.Type
