/**
 * The forge's rows and their REST views (Forge.ts, forgeSync.ts): repositories, a card's pull
 * requests (with their combined checks, computed from the head commit's checks), and the object
 * of the `card.pull_request_*` events.
 */
import { iso } from "../board/rows.ts"
import type {
  CheckState,
  ForgeProvider,
  PullRequest,
  PullRequestState,
  Repository,
  ReviewState
} from "../domain/forge.ts"
import type { ProjectId } from "../domain/ids.ts"

export interface RepositoryRow {
  readonly id: string
  readonly project_id: string
  readonly provider: ForgeProvider
  readonly name: string
  readonly created_at: Date | string
}

export const REPOSITORY_COLUMNS = "r.id, r.project_id, r.provider, r.name, r.created_at"

export const repositoryView = (publicUrl: string, r: RepositoryRow): Repository => ({
  id: r.id,
  projectId: r.project_id as ProjectId,
  provider: r.provider,
  name: r.name,
  webhookUrl: `${publicUrl}/api/v1/forge-hooks/${r.id}`,
  createdAt: iso(r.created_at)
})

/** The combined checks of pull request `pr`'s head commit: any failure fails, any pending waits. */
export const combinedChecksSql = (pr: string) => `(SELECT CASE WHEN count(*) = 0 THEN NULL
    WHEN bool_or(fc.state = 'failure') THEN 'failure' WHEN bool_or(fc.state = 'pending') THEN 'pending' ELSE 'success' END
    FROM forge_checks fc WHERE fc.repository_id = ${pr}.repository_id AND fc.sha = ${pr}.head_sha)`

/**
 * The compact mark of card `card` (an SQL expression of its id) from its linked pull requests
 * (migrations/0027_pull_request_mark.sql): checks failing on one not closed, else one open or
 * draft, else one merged, else null.
 */
export const pullRequestMarkSql = (card: string) => `(SELECT CASE
    WHEN bool_or(mp.state <> 'closed' AND ${combinedChecksSql("mp")} = 'failure') THEN 'checks_failing'
    WHEN bool_or(mp.state IN ('open', 'draft')) THEN 'open'
    WHEN bool_or(mp.state = 'merged') THEN 'merged' END
    FROM card_pull_requests mcpr JOIN pull_requests mp ON mp.id = mcpr.pull_request_id WHERE mcpr.card_id = ${card})`

/** A mark's rank: the mark of a card is the highest rank among its linked pull requests'. */
const markRank = (mark: string) =>
  `(CASE ${mark} WHEN 'checks_failing' THEN 3 WHEN 'open' THEN 2 WHEN 'merged' THEN 1 ELSE 0 END)`
/** The rank of pull request `pr` alone (closed: 0). */
export const pullRequestRankSql = (pr: string) => `(CASE WHEN ${pr}.state = 'closed' THEN 0
    WHEN ${combinedChecksSql(pr)} = 'failure' THEN 3 WHEN ${pr}.state IN ('open', 'draft') THEN 2 ELSE 1 END)`
/** The same rank from a pull request's state and combined checks as values (JavaScript). */
export const pullRequestRank = (state: string, checks: string | null): number =>
  state === "closed" ? 0 : checks === "failure" ? 3 : state === "open" || state === "draft" ? 2 : 1
const rankMark = (rank: string) =>
  `(CASE ${rank} WHEN 3 THEN 'checks_failing' WHEN 2 THEN 'open' WHEN 1 THEN 'merged' END)`

/**
 * A CTE `marked` that writes the mark of the cards in `cards` (an SQL set of card ids) where it
 * changed, answering their ids and new marks. Run it in a statement of its own after the writes
 * it summarizes and after the delivery locked the cards (its snapshot then holds every change
 * that committed before, so of two deliveries on one card the second writes what both did).
 *
 * `one`: the change is of one pull request (SQL of its id; `was`, its rank before, or 0 where
 * `fresh`, an SQL array of the card ids it was just linked to). A rank that did not fall needs
 * no walk over the card's other pull requests: the mark was the highest rank of them all, so it
 * becomes the higher of the mark and the new rank. Only a fall (a merge, a close, checks
 * passing) reads them all again. So a card with a thousand pull requests costs one probe.
 */
export const markCte = (cards: string, one?: { readonly pr: string; readonly was: string; readonly fresh: string }) => {
  const full = pullRequestMarkSql("x.id")
  const mark =
    one === undefined
      ? full
      : `(SELECT CASE WHEN r.now >= r.was THEN ${rankMark(`greatest(${markRank("x.pull_request_mark")}, r.now)`)} ELSE ${full} END
          FROM (SELECT ${pullRequestRankSql("op")} AS now,
            CASE WHEN x.id = ANY(${one.fresh}) THEN 0 ELSE ${one.was} END AS was
            FROM pull_requests op WHERE op.id = ${one.pr}) r)`
  return `marked AS (
    UPDATE cards mc SET pull_request_mark = m.mark
    FROM (SELECT x.id, ${mark} AS mark FROM cards x WHERE x.id IN (${cards})) m
    WHERE mc.id = m.id AND mc.pull_request_mark IS DISTINCT FROM m.mark
    RETURNING mc.id, mc.pull_request_mark)`
}

export interface PullRequestRow {
  readonly card_id: string
  readonly card_ref: string
  readonly pull_request_id: string
  readonly repository_id: string
  readonly repository_name: string
  readonly provider: ForgeProvider
  readonly number: number
  readonly title: string
  readonly url: string
  readonly branch: string
  readonly state: PullRequestState
  readonly closes: boolean
  readonly checks: CheckState | null
  readonly review: ReviewState | null
  readonly merge_commit_sha: string | null
  readonly merged_at: Date | string | null
  readonly updated_at: Date | string
  /** The card's compact mark (`pullRequestMark`), when the statement reads it. */
  readonly card_mark?: string | null
}

/** A card's pull requests, as rows of `PullRequestRow`; the caller adds the WHERE. */
export const PULL_REQUEST_SELECT = `
  SELECT cpr.card_id, c.ref AS card_ref, pr.id AS pull_request_id, pr.repository_id, r.name AS repository_name,
    r.provider, pr.number, pr.title, pr.url, pr.branch, pr.state, cpr.closes, ${combinedChecksSql("pr")} AS checks,
    pr.review, pr.merge_commit_sha, pr.merged_at, pr.updated_at
  FROM card_pull_requests cpr
  JOIN pull_requests pr ON pr.id = cpr.pull_request_id
  JOIN repositories r ON r.id = pr.repository_id
  JOIN cards c ON c.id = cpr.card_id`

export const pullRequestView = (r: PullRequestRow): PullRequest => ({
  repositoryId: r.repository_id,
  provider: r.provider,
  number: Number(r.number),
  title: r.title,
  url: r.url,
  branch: r.branch,
  state: r.state,
  closes: r.closes,
  checks: r.checks,
  review: r.review,
  mergeCommitSha: r.merge_commit_sha,
  mergedAt: r.merged_at === null ? null : iso(r.merged_at),
  updatedAt: iso(r.updated_at)
})

/** The object of `card.pull_request_linked` / `_updated`: the card, the repository and the pull request. */
export const linkEventObject = (r: PullRequestRow) => ({
  cardId: r.card_id,
  ref: r.card_ref,
  repository: r.repository_name,
  pullRequest: pullRequestView(r),
  pullRequestMark: r.card_mark ?? null
})

/** The object of `card.commit_linked`: the card, the repository and the commit. */
export const commitEventObject = (r: {
  readonly card_id: string
  readonly card_ref: string
  readonly repository: string
  readonly sha: string
  readonly message: string
  readonly url: string | null
  readonly closes: boolean
}) => ({
  cardId: r.card_id,
  ref: r.card_ref,
  repository: r.repository,
  commit: { sha: r.sha, message: r.message.split("\n")[0]!.slice(0, 500), url: r.url, closes: r.closes }
})
