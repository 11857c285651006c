/**
 * What a forge's delivery changes (issue 31), in the delivery's own transaction: the pull request
 * and its links to the cards it names, the checks of a commit, a pushed commit's links, a
 * successful deployment; then the automation (forward only, never out of `done`, each move an
 * ordinary `card.moved` by the forge) and the feedback for the agent holding a card.
 *
 * Over 400 lines: one delivery's steps in the order the transaction runs them (links before
 * marks, marks before moves, moves before feedback); the SQL fragments live in forgeRows.ts.
 */
import { Effect } from "effect"
import type { SqlClient } from "effect/sql"
import type { AgentSessions } from "../board/AgentSessions.ts"
import type { Cards } from "../board/Cards.ts"
import type { ForgeProvider, MoveCause, PullRequestState } from "../domain/forge.ts"
import type { EventInput, EventLog } from "../events/EventLog.ts"
import { sqlNow } from "../infra/clock.ts"
import {
  combinedChecksSql,
  commitEventObject,
  linkEventObject,
  cardLock,
  markCte,
  PULL_REQUEST_SELECT,
  type PullRequestRow
} from "./forgeRows.ts"
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

/** The number of a mention's ref (`WEB-12` → 12): cards are found by (project, ref number), their unique index. */
const refNumber = (ref: string) => Number(ref.slice(ref.lastIndexOf("-") + 1))

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

  const label = (repo: Connection, number: number) => `${repo.name}#${number}`

  /**
   * The links of the pull requests `prIds` in their REST shape, each with its card's compact mark
   * written first (`markCte`) and the card's column kind; one statement. The delivery locked the
   * cards before (so this statement's snapshot holds every change another delivery committed).
   */
  const markedLinksOf = (prIds: ReadonlyArray<string>, raising = false) =>
    run<PullRequestRow & { readonly card_mark: string | null; readonly column_kind: string }>(
      `WITH ${markCte(
        "SELECT card_id FROM card_pull_requests WHERE pull_request_id = ANY($1::uuid[])",
        raising ? { pr: "($1::uuid[])[1]" } : undefined
      )}
       ${PULL_REQUEST_SELECT.replace("SELECT cpr.card_id,", "SELECT cpr.card_id, CASE WHEN mk.id IS NULL THEN c.pull_request_mark ELSE mk.pull_request_mark END AS card_mark, col.kind AS column_kind,")}
       JOIN board_columns col ON col.id = c.column_id
       LEFT JOIN marked mk ON mk.id = cpr.card_id
       WHERE cpr.pull_request_id = ANY($1::uuid[]) ORDER BY pr.number, c.ref_number`,
      [prIds]
    )

  /**
   * Moves a card forward to the project's first column of `kind`; never back, never out of done.
   * Run after the delivery's transaction commits: each move is its own statement (Cards' one-
   * statement write, which retries its own races, and moves the card only from a column of a
   * kind below `kind`, checked on the row it updates). Its `card.moved` names the pull request.
   */
  const advance = (provider: ForgeProvider, move: Move) =>
    Effect.gen(function* () {
      const [row] = yield* run<{ target: string | null }>(
        `SELECT t.id AS target FROM board_columns t JOIN cards c ON c.project_id = t.project_id
         WHERE c.id = $1::uuid AND t.kind = $2 ORDER BY t.position, t.id LIMIT 1`,
        [move.cardId, move.kind]
      )
      if (row === undefined || row.target === null) return
      const rank = KIND_RANK[move.kind]!
      const below = Object.keys(KIND_RANK).filter((k) => KIND_RANK[k]! < rank)
      yield* cards.moveAsForge(move.cardId, row.target, provider, below, move.cause)
    })

  /** The moves a delivery asks for, made once it committed (`advance`), and the pull request that asked. */
  type Move = { readonly cardId: string; readonly kind: "in_progress" | "done"; readonly cause: MoveCause }

  /** Whether a card in a column of kind `from` would move forward to `to` (`advance` checks again). */
  const forward = (from: string, to: "in_progress" | "done") => (KIND_RANK[from] ?? 0) < KIND_RANK[to]!

  const pullRequest = (repo: Connection, pr: PullRequestFacts, review: ReviewFacts | undefined, moves: Array<Move>) =>
    Effect.gen(function* () {
      const now = yield* sqlNow
      const prefix = repo.ref_prefix
      const inBranch = new Set(branchMentions(prefix, pr.branch).map((m) => m.ref))
      const mentions = mergeMentions(
        branchMentions(prefix, pr.branch),
        mentionsIn(prefix, pr.title),
        mentionsIn(prefix, pr.body)
      )
      // One statement: the pull request as it was (its row locked, so deliveries of one pull
      // request apply in turn), its upsert (merged is final: a late "opened" does not reopen it),
      // the links to the cards it names (refs are per project: only this project's cards), and
      // the lock of every card it is linked to, so the marks written next see what another
      // delivery on one of those cards committed.
      const [written] = yield* run<{
        id: string
        prev_state: PullRequestState | null
        prev_review: string | null
        prev_checks: string | null
        existed: boolean
        fresh: ReadonlyArray<string> | null
        locked: number
        lowers: boolean
      }>(
        `WITH prev AS (
           SELECT pr.id, pr.state, pr.review, pr.head_sha, ${combinedChecksSql("pr")} AS checks FROM pull_requests pr
           WHERE pr.repository_id = $1::uuid AND pr.number = $2::int FOR UPDATE
         ), up AS (
           INSERT INTO pull_requests AS pr (repository_id, number, title, url, branch, state, head_sha, review, merge_commit_sha, merged_at, updated_at)
           SELECT $1::uuid, $2::int, $3::text, $4::text, $5::text, $6::text, lower($7::text), $8::text, lower($9::text), $10::timestamptz, $11::timestamptz
           FROM (SELECT count(*) FROM prev) AS after_prev
           ON CONFLICT (repository_id, number) DO UPDATE SET
             title = EXCLUDED.title, url = EXCLUDED.url, branch = EXCLUDED.branch,
             state = CASE WHEN pr.state = 'merged' THEN 'merged' ELSE EXCLUDED.state END,
             head_sha = COALESCE(EXCLUDED.head_sha, pr.head_sha),
             review = CASE WHEN $12::boolean THEN EXCLUDED.review ELSE pr.review END,
             merge_commit_sha = COALESCE(EXCLUDED.merge_commit_sha, pr.merge_commit_sha),
             merged_at = COALESCE(EXCLUDED.merged_at, pr.merged_at),
             updated_at = EXCLUDED.updated_at
           RETURNING pr.id
         ), named AS (
           SELECT c.id, m.closes FROM unnest($14::text[], $15::boolean[], $16::int[]) AS m(ref, closes, n)
           JOIN cards c ON c.project_id = $13::uuid AND c.ref_number = m.n AND upper(c.ref) = m.ref
         ), lowers AS (
           -- whether this delivery may lower its cards' marks: a pull request that had a rank and
           -- is no longer open on the same head (cardLock)
           SELECT EXISTS (SELECT 1 FROM prev WHERE prev.state <> 'closed' AND NOT (
             prev.state IN ('open', 'draft') AND $6::text IN ('open', 'draft')
             AND (lower($7::text) IS NULL OR lower($7::text) = prev.head_sha))) AS yes
         ), cards_of AS (
           SELECT id FROM named
           UNION SELECT cpr.card_id FROM card_pull_requests cpr JOIN prev ON cpr.pull_request_id = prev.id
         ), shared AS (
           SELECT k.id FROM cards k WHERE k.id IN (SELECT id FROM cards_of) AND NOT (SELECT yes FROM lowers)
           ORDER BY k.id ${cardLock(false)}
         ), exclusive AS (
           SELECT k.id FROM cards k WHERE k.id IN (SELECT id FROM cards_of) AND (SELECT yes FROM lowers)
           ORDER BY k.id ${cardLock(true)}
         ), linked AS (
           INSERT INTO card_pull_requests (card_id, pull_request_id, closes, created_at)
           SELECT n.id, up.id, n.closes, $11::timestamptz
           FROM named n CROSS JOIN up CROSS JOIN (SELECT count(*) FROM exclusive) AS after_lock
           ON CONFLICT (card_id, pull_request_id) DO UPDATE SET closes = EXCLUDED.closes
           RETURNING card_id, (xmax = 0) AS inserted
         )
         SELECT up.id, prev.state AS prev_state, prev.review AS prev_review, prev.checks AS prev_checks,
           prev.id IS NOT NULL AS existed,
           ARRAY(SELECT card_id FROM linked WHERE inserted) AS fresh,
           (SELECT count(*) FROM shared)::int + (SELECT count(*) FROM exclusive)::int AS locked,
           (SELECT yes FROM lowers) AS lowers
         FROM up LEFT JOIN prev ON true`,
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
          review !== undefined,
          repo.project_id,
          mentions.map((m) => m.ref),
          mentions.map((m) => m.closes),
          mentions.map((m) => refNumber(m.ref))
        ]
      )
      const prId = written!.id
      const prev = written!.existed
        ? { state: written!.prev_state!, review: written!.prev_review, checks: written!.prev_checks }
        : undefined
      const fresh = new Set<string>(written!.fresh ?? [])
      // a delivery that cannot lower the pull request's rank held the shared lock: it only raises
      const links = yield* markedLinksOf([prId], !written!.lowers)
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
        const cause: MoveCause = { repository: repo.name, number: pr.number, action: "opened" }
        for (const link of links) {
          const named = inBranch.has(link.card_ref.toUpperCase()) || link.closes
          if (
            named &&
            byRef.has(link.card_ref.toUpperCase()) &&
            (becameOpen || fresh.has(link.card_id)) &&
            forward(link.column_kind, "in_progress")
          )
            moves.push({ cardId: link.card_id, kind: "in_progress", cause })
        }
      }
      if (repo.automation.pullRequestMerged && state === "merged" && prev?.state !== "merged") {
        const closing = links.filter((l) => l.closes && forward(l.column_kind, "done"))
        const others =
          closing.length === 0
            ? []
            : yield* run<{ card_id: string }>(
                `SELECT DISTINCT o.card_id FROM card_pull_requests o JOIN pull_requests op ON op.id = o.pull_request_id
                 WHERE o.card_id = ANY($1::uuid[]) AND o.closes AND op.id <> $2::uuid AND op.state IN ('open', 'draft')`,
                [closing.map((l) => l.card_id), prId]
              )
        const waiting = new Set(others.map((o) => o.card_id))
        const cause: MoveCause = { repository: repo.name, number: pr.number, action: "merged" }
        for (const link of closing)
          if (!waiting.has(link.card_id)) moves.push({ cardId: link.card_id, kind: "done", cause })
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
      // One statement: the pull requests of the commit with their checks before this one, the
      // check's upsert, and the lock of their linked cards (the marks written next: markCte).
      const before = yield* run<{ id: string; checks: string | null; locked: number }>(
        `WITH prs AS (
           SELECT pr.id, ${combinedChecksSql("pr")} AS checks FROM pull_requests pr
           WHERE pr.repository_id = $1::uuid AND (pr.head_sha = $2::text OR pr.number = ANY($3::int[]))
         ), written AS (
           INSERT INTO forge_checks (repository_id, sha, name, state, url, updated_at)
           VALUES ($1::uuid, $2::text, $4::text, $5::text, $6::text, $7::timestamptz)
           ON CONFLICT (repository_id, sha, name) DO UPDATE SET state = EXCLUDED.state, url = EXCLUDED.url, updated_at = EXCLUDED.updated_at
           RETURNING 1
         ), locked AS (
           SELECT k.id FROM cards k WHERE k.id IN (
             SELECT cpr.card_id FROM card_pull_requests cpr WHERE cpr.pull_request_id IN (SELECT id FROM prs))
           ORDER BY k.id ${cardLock(true)}
         )
         SELECT prs.id, prs.checks, (SELECT count(*) FROM locked)::int AS locked
         FROM prs CROSS JOIN (SELECT count(*) FROM written) w`,
        [
          repo.id,
          sha,
          [...change.numbers],
          change.name.slice(0, 300),
          change.state,
          change.url?.slice(0, 2048) ?? null,
          now
        ]
      )
      if (before.length === 0) return
      const was = new Map(before.map((p) => [p.id, p.checks]))
      const links = yield* markedLinksOf(before.map((p) => p.id))
      const changed = links.filter((l) => (was.get(l.pull_request_id) ?? null) !== l.checks)
      yield* events.record(
        { forge: repo.provider },
        changed.map((l) => ({
          type: "card.pull_request_updated" as const,
          workspaceId: repo.workspace_id,
          projectId: repo.project_id,
          cardId: l.card_id,
          object: linkEventObject(l),
          previous: { checks: was.get(l.pull_request_id) ?? null }
        }))
      )
      const failed = [...new Set(changed.filter((l) => l.checks === "failure").map((l) => l.pull_request_id))]
      for (const prId of failed) {
        const failing = yield* run<{ name: string; url: string | null }>(
          `SELECT fc.name, fc.url FROM forge_checks fc JOIN pull_requests pr ON pr.id = $1::uuid
           WHERE fc.repository_id = pr.repository_id AND fc.sha = pr.head_sha AND fc.state = 'failure' ORDER BY fc.name`,
          [prId]
        )
        const list = failing.map((f) => `- ${f.name.replace(/^(suite|run|status):/, "")}${f.url ? ` ${f.url}` : ""}`)
        for (const l of changed.filter((c) => c.pull_request_id === prId))
          yield* sessions.feedback(
            l.card_id,
            `Checks failed on ${label(repo, l.number)}:\n${list.join("\n")}`,
            repo.provider
          )
      }
    })

  /** Links each pushed commit to the cards its message names; a new link is a `card.commit_linked` event. */
  const push = (
    repo: Connection,
    commits: ReadonlyArray<{ readonly sha: string; readonly message: string; readonly url: string | null }>
  ) =>
    Effect.gen(function* () {
      const rows = commits.flatMap((c) => mentionsIn(repo.ref_prefix, c.message).map((m) => ({ ...m, commit: c })))
      if (rows.length === 0) return
      const now = yield* sqlNow
      const linked = yield* run<{ card_id: string; card_ref: string; sha: string; closes: boolean; i: number }>(
        `WITH m AS (
           SELECT * FROM unnest($4::text[], $5::text[], $6::boolean[], $7::int[]) WITH ORDINALITY AS m(ref, sha, closes, n, i)
         ), ins AS (
           INSERT INTO card_commits (card_id, repository_id, sha, closes, created_at)
           SELECT c.id, $2::uuid, lower(m.sha), m.closes, $3::timestamptz
           FROM m JOIN cards c ON c.project_id = $1::uuid AND c.ref_number = m.n AND upper(c.ref) = m.ref
           ON CONFLICT (card_id, sha) DO NOTHING
           RETURNING card_id, sha, closes
         )
         SELECT ins.card_id, c.ref AS card_ref, ins.sha, ins.closes,
           (SELECT min(m.i) FROM m WHERE lower(m.sha) = ins.sha)::int AS i
         FROM ins JOIN cards c ON c.id = ins.card_id ORDER BY i, c.ref_number`,
        [
          repo.project_id,
          repo.id,
          now,
          rows.map((r) => r.ref),
          rows.map((r) => r.commit.sha),
          rows.map((r) => r.closes),
          rows.map((r) => refNumber(r.ref))
        ]
      )
      yield* events.record(
        { forge: repo.provider },
        linked.map((l) => {
          const commit = rows[l.i - 1]!.commit
          return {
            type: "card.commit_linked" as const,
            workspaceId: repo.workspace_id,
            projectId: repo.project_id,
            cardId: l.card_id,
            object: commitEventObject({
              card_id: l.card_id,
              card_ref: l.card_ref,
              repository: repo.name,
              sha: l.sha,
              message: commit.message,
              url: commit.url,
              closes: l.closes
            })
          }
        })
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
