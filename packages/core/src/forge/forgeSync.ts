/**
 * What a forge's delivery changes (issue 31), in the delivery's own transaction: the pull request
 * and its links to the cards it names, the checks of a commit, a pushed commit's links, a
 * successful deployment; then the automation (forward only, never out of `done`, each move an
 * ordinary `card.moved` by the forge) and the feedback for the agent holding a card.
 */
import { Effect } from "effect"
import type { SqlClient } from "effect/sql"
import type { AgentSessions } from "../board/AgentSessions.ts"
import type { Cards } from "../board/Cards.ts"
import type { ForgeProvider, PullRequestState } from "../domain/forge.ts"
import type { EventInput, EventLog } from "../events/EventLog.ts"
import { sqlNow } from "../infra/clock.ts"
import { combinedChecksSql, linkEventObject, PULL_REQUEST_SELECT, type PullRequestRow } from "./forgeRows.ts"
import type { ForgeChange, PullRequestFacts, ReviewFacts } from "./payloads.ts"
import { branchMentions, mentionsIn, mergeMentions } from "./refs.ts"

/** The connection a delivery came through, with what its project says. */
export interface Connection {
  readonly id: string
  readonly project_id: string
  readonly workspace_id: string
  readonly provider: ForgeProvider
  readonly name: string
  readonly ref_prefix: string
  readonly automation: { readonly pullRequestOpened: boolean; readonly pullRequestMerged: boolean }
}

const KIND_RANK: Record<string, number> = { todo: 0, in_progress: 1, done: 2 }

export interface SyncDeps {
  readonly sql: SqlClient.SqlClient
  readonly events: EventLog["Service"]
  readonly cards: Cards["Service"]
  readonly sessions: AgentSessions["Service"]
  /** Ships the project's cards linked to these commits (Forge.ts). */
  readonly ship: (
    projectId: string,
    workspaceId: string,
    environment: string,
    commits: ReadonlyArray<string>,
    actor: { readonly forge: ForgeProvider }
  ) => Effect.Effect<ReadonlyArray<string>>
}

export const forgeSync = ({ sql, events, cards, sessions, ship }: SyncDeps) => {
  const run = <A extends object>(text: string, params: ReadonlyArray<unknown>) =>
    sql.unsafe<A>(text, params as Array<unknown>).pipe(Effect.orDie)

  /** The pull request's links, in their REST shape. */
  const linksOf = (prId: string) =>
    run<PullRequestRow>(`${PULL_REQUEST_SELECT} WHERE cpr.pull_request_id = $1::uuid ORDER BY c.ref_number`, [prId])

  const label = (repo: Connection, number: number) => `${repo.name}#${number}`

  /**
   * Moves a card forward to the project's first column of `kind`; never back, never out of done.
   * Run after the delivery's transaction commits: each move is its own statement (Cards' one-
   * statement write, which retries its own races), checking the card's column kind again.
   */
  const advance = (provider: ForgeProvider, cardId: string, kind: "in_progress" | "done") =>
    Effect.gen(function* () {
      const [row] = yield* run<{ kind: string; target: string | null }>(
        `SELECT col.kind, (SELECT t.id FROM board_columns t WHERE t.project_id = c.project_id AND t.kind = $2
           ORDER BY t.position, t.id LIMIT 1) AS target
         FROM cards c JOIN board_columns col ON col.id = c.column_id WHERE c.id = $1::uuid`,
        [cardId, kind]
      )
      if (row === undefined || row.target === null) return
      const rank = KIND_RANK[kind]!
      if ((KIND_RANK[row.kind] ?? 0) >= rank) return
      const below = Object.keys(KIND_RANK).filter((k) => KIND_RANK[k]! < rank)
      yield* cards.moveAsForge(cardId, row.target, provider, below)
    })

  /** The moves a delivery asks for, made once it committed (`advance`). */
  type Move = { readonly cardId: string; readonly kind: "in_progress" | "done" }

  const pullRequest = (repo: Connection, pr: PullRequestFacts, review: ReviewFacts | undefined, moves: Array<Move>) =>
    Effect.gen(function* () {
      const now = yield* sqlNow
      const [prev] = yield* run<{ id: string; state: PullRequestState; review: string | null; checks: string | null }>(
        `SELECT pr.id, pr.state, pr.review, ${combinedChecksSql("pr")} AS checks FROM pull_requests pr
         WHERE pr.repository_id = $1::uuid AND pr.number = $2 FOR UPDATE`,
        [repo.id, pr.number]
      )
      // merged is final: a late "opened" delivery does not reopen it
      const [written] = yield* run<{ id: string }>(
        `INSERT INTO pull_requests (repository_id, number, title, url, branch, state, head_sha, review, merge_commit_sha, merged_at, updated_at)
         VALUES ($1::uuid, $2, $3, $4, $5, $6, lower($7), $8, lower($9), $10::timestamptz, $11::timestamptz)
         ON CONFLICT (repository_id, number) DO UPDATE SET
           title = EXCLUDED.title, url = EXCLUDED.url, branch = EXCLUDED.branch,
           state = CASE WHEN pull_requests.state = 'merged' THEN 'merged' ELSE EXCLUDED.state END,
           head_sha = COALESCE(EXCLUDED.head_sha, pull_requests.head_sha),
           review = CASE WHEN $12::boolean THEN EXCLUDED.review ELSE pull_requests.review END,
           merge_commit_sha = COALESCE(EXCLUDED.merge_commit_sha, pull_requests.merge_commit_sha),
           merged_at = COALESCE(EXCLUDED.merged_at, pull_requests.merged_at),
           updated_at = EXCLUDED.updated_at
         RETURNING id`,
        [
          repo.id,
          pr.number,
          pr.title.slice(0, 1000),
          pr.url.slice(0, 2048),
          pr.branch.slice(0, 500),
          pr.state,
          pr.headSha,
          review?.state ?? null,
          pr.mergeCommitSha,
          pr.mergedAt,
          now,
          review !== undefined
        ]
      )
      const prId = written!.id
      const prefix = repo.ref_prefix
      const inBranch = new Set(branchMentions(prefix, pr.branch).map((m) => m.ref))
      const mentions = mergeMentions(
        branchMentions(prefix, pr.branch),
        mentionsIn(prefix, pr.title),
        mentionsIn(prefix, pr.body)
      )
      const fresh = new Set<string>()
      if (mentions.length > 0) {
        // refs are per project: only this project's cards are looked up
        const linked = yield* run<{ card_id: string; inserted: boolean }>(
          `INSERT INTO card_pull_requests (card_id, pull_request_id, closes, created_at)
           SELECT c.id, $2::uuid, m.closes, $4::timestamptz
           FROM unnest($3::text[], $5::boolean[]) AS m(ref, closes)
           JOIN cards c ON c.project_id = $1::uuid AND upper(c.ref) = m.ref
           ON CONFLICT (card_id, pull_request_id) DO UPDATE SET closes = EXCLUDED.closes
           RETURNING card_id, (xmax = 0) AS inserted`,
          [repo.project_id, prId, mentions.map((m) => m.ref), now, mentions.map((m) => m.closes)]
        )
        for (const l of linked) if (l.inserted) fresh.add(l.card_id)
      }
      const links = yield* linksOf(prId)
      const log: Array<EventInput> = []
      for (const link of links) {
        const base = { workspaceId: repo.workspace_id, projectId: repo.project_id, cardId: link.card_id }
        if (fresh.has(link.card_id)) {
          log.push({ ...base, type: "card.pull_request_linked", object: linkEventObject(link) })
          continue
        }
        const previous: Record<string, unknown> = {}
        if (prev !== undefined && prev.state !== link.state) previous.state = prev.state
        if (prev !== undefined && prev.review !== link.review) previous.review = prev.review
        if (prev !== undefined && prev.checks !== link.checks) previous.checks = prev.checks
        if (Object.keys(previous).length > 0)
          log.push({ ...base, type: "card.pull_request_updated", object: linkEventObject(link), previous })
      }
      yield* events.record({ forge: repo.provider }, log)

      const state = links[0]?.state ?? pr.state
      const byRef = new Map(mentions.map((m) => [m.ref, m]))
      if (repo.automation.pullRequestOpened && state === "open") {
        const becameOpen = prev === undefined || prev.state !== "open"
        for (const link of links) {
          const named = inBranch.has(link.card_ref.toUpperCase()) || link.closes
          if (named && byRef.has(link.card_ref.toUpperCase()) && (becameOpen || fresh.has(link.card_id)))
            moves.push({ cardId: link.card_id, kind: "in_progress" })
        }
      }
      if (repo.automation.pullRequestMerged && state === "merged" && prev?.state !== "merged") {
        for (const link of links.filter((l) => l.closes)) {
          const [others] = yield* run<{ n: number }>(
            `SELECT count(*)::int AS n FROM card_pull_requests o JOIN pull_requests op ON op.id = o.pull_request_id
             WHERE o.card_id = $1::uuid AND o.closes AND op.id <> $2::uuid AND op.state IN ('open', 'draft')`,
            [link.card_id, prId]
          )
          if ((others?.n ?? 0) === 0) moves.push({ cardId: link.card_id, kind: "done" })
        }
      }
      if (review?.state === "changes_requested") {
        const who = review.reviewer === null ? "" : ` by ${review.reviewer}`
        const words = review.body.trim() === "" ? "" : `:\n\n${review.body.trim()}`
        const link = review.url === null ? "" : `\n\n${review.url}`
        for (const l of links)
          yield* sessions.feedback(
            l.card_id,
            `Changes requested on ${label(repo, pr.number)}${who}${words}${link}`,
            repo.provider
          )
      }
    })

  const check = (repo: Connection, change: Extract<ForgeChange, { kind: "check" }>) =>
    Effect.gen(function* () {
      const now = yield* sqlNow
      const sha = change.sha.toLowerCase()
      const prsOf = () =>
        run<{ id: string; number: number; checks: string | null }>(
          `SELECT pr.id, pr.number, ${combinedChecksSql("pr")} AS checks FROM pull_requests pr
           WHERE pr.repository_id = $1::uuid AND (pr.head_sha = $2 OR pr.number = ANY($3::int[]))
           ORDER BY pr.number`,
          [repo.id, sha, [...change.numbers]]
        )
      const before = new Map((yield* prsOf()).map((p) => [p.id, p.checks]))
      yield* run(
        `INSERT INTO forge_checks (repository_id, sha, name, state, url, updated_at)
         VALUES ($1::uuid, $2, $3, $4, $5, $6::timestamptz)
         ON CONFLICT (repository_id, sha, name) DO UPDATE SET state = EXCLUDED.state, url = EXCLUDED.url, updated_at = EXCLUDED.updated_at`,
        [repo.id, sha, change.name.slice(0, 300), change.state, change.url?.slice(0, 2048) ?? null, now]
      )
      for (const pr of yield* prsOf()) {
        const was = before.get(pr.id) ?? null
        if (was === pr.checks) continue
        const links = yield* linksOf(pr.id)
        yield* events.record(
          { forge: repo.provider },
          links.map((l) => ({
            type: "card.pull_request_updated" as const,
            workspaceId: repo.workspace_id,
            projectId: repo.project_id,
            cardId: l.card_id,
            object: linkEventObject(l),
            previous: { checks: was }
          }))
        )
        if (pr.checks !== "failure") continue
        const failing = yield* run<{ name: string; url: string | null }>(
          `SELECT fc.name, fc.url FROM forge_checks fc JOIN pull_requests pr ON pr.id = $1::uuid
           WHERE fc.repository_id = pr.repository_id AND fc.sha = pr.head_sha AND fc.state = 'failure' ORDER BY fc.name`,
          [pr.id]
        )
        const list = failing.map((f) => `- ${f.name.replace(/^(suite|run|status):/, "")}${f.url ? ` ${f.url}` : ""}`)
        for (const l of links)
          yield* sessions.feedback(
            l.card_id,
            `Checks failed on ${label(repo, pr.number)}:\n${list.join("\n")}`,
            repo.provider
          )
      }
    })

  const push = (repo: Connection, commits: ReadonlyArray<{ readonly sha: string; readonly message: string }>) =>
    Effect.gen(function* () {
      const rows = commits.flatMap((c) => mentionsIn(repo.ref_prefix, c.message).map((m) => ({ ...m, sha: c.sha })))
      if (rows.length === 0) return
      const now = yield* sqlNow
      yield* run(
        `INSERT INTO card_commits (card_id, repository_id, sha, closes, created_at)
         SELECT c.id, $2::uuid, lower(m.sha), m.closes, $3::timestamptz
         FROM unnest($4::text[], $5::text[], $6::boolean[]) AS m(ref, sha, closes)
         JOIN cards c ON c.project_id = $1::uuid AND upper(c.ref) = m.ref
         ON CONFLICT (card_id, sha) DO NOTHING`,
        [repo.project_id, repo.id, now, rows.map((r) => r.ref), rows.map((r) => r.sha), rows.map((r) => r.closes)]
      )
    })

  /**
   * Applies one read change (a change of another repository is refused before: Forge.ts), in the
   * caller's transaction; answers the moves to make once it committed (`advance` them).
   */
  const apply = (repo: Connection, change: ForgeChange): Effect.Effect<ReadonlyArray<Move>> => {
    const moves: Array<Move> = []
    return applyChange(repo, change, moves).pipe(Effect.as(moves))
  }

  const applyChange = (repo: Connection, change: ForgeChange, moves: Array<Move>): Effect.Effect<void> => {
    switch (change.kind) {
      case "pull_request":
        return pullRequest(repo, change.pr, change.review, moves)
      case "check":
        return check(repo, change)
      case "push":
        return push(repo, change.commits)
      case "deployment":
        return ship(repo.project_id, repo.workspace_id, change.environment, [change.sha], {
          forge: repo.provider
        }).pipe(Effect.asVoid)
      case "ignored":
        return Effect.void
    }
  }

  return { apply, advance }
}
