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
const rankMark = (rank: string) =>
  `(CASE ${rank} WHEN 3 THEN 'checks_failing' WHEN 2 THEN 'open' WHEN 1 THEN 'merged' END)`

/**
 * A CTE `marked` that writes the mark of the cards in `cards` (an SQL set of card ids) where it
 * changed, answering their ids and new marks. Run it in a statement of its own after the writes
 * it summarizes and after the delivery locked the cards (`cardLock`).
 *
 * `raising`: the change is of one pull request (SQL of its id) that can only raise its rank
 * (a delivery under the shared lock: `cardLock`). That needs no walk over the card's other pull
 * requests: the mark is the highest rank of them all, so it becomes the higher of the mark and
 * the pull request's rank, the mark read from the row being updated (so of two raises at once,
 * the second, waiting for the first's row, raises what the first wrote). Any other change (a
 * merge, a close, a new head, a check) reads them all again, under the exclusive lock. So a
 * card with a thousand open pull requests costs one probe for the next one.
 */
export const markCte = (cards: string, raising?: { readonly pr: string }) => {
  const mark =
    raising === undefined
      ? pullRequestMarkSql("mc.id")
      : rankMark(`greatest(${markRank("mc.pull_request_mark")}, m.now)`)
  const from =
    raising === undefined
      ? `(SELECT x.id FROM cards x WHERE x.id IN (${cards}) OFFSET 0) m`
      : `(SELECT x.id, r.now FROM cards x
          CROSS JOIN (SELECT ${pullRequestRankSql("op")} AS now FROM pull_requests op WHERE op.id = ${raising.pr}) r
          WHERE x.id IN (${cards}) OFFSET 0) m`
  return `marked AS (
    UPDATE cards mc SET pull_request_mark = ${mark}
    FROM ${from}
    WHERE mc.id = m.id AND mc.pull_request_mark IS DISTINCT FROM ${mark}
    RETURNING mc.id, mc.pull_request_mark)`
}

/**
 * The lock a delivery takes on the cards whose marks it will write, before it writes them (in
 * its first statement; the marks' statement then reads what committed before). A delivery that
 * can only raise a mark (a new or still open pull request on the same head, a failing check)
 * takes `FOR KEY SHARE`, as inserting a link does anyway: raises never wait for each other, and
 * a raise reads the mark from its row (`markCte`). One that may lower it (a merge, a close, a new
 * head, a passing check) takes `FOR UPDATE`, which waits for every delivery holding the card and
 * holds off the next, so its walk over the card's pull requests sees all of them.
 */
export const cardLock = (mayLower: boolean) => (mayLower ? "FOR UPDATE" : "FOR KEY SHARE")

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
