/**
 * The project's store of external links. A submission is stored and rated against the board
 * before the answer; a human review overrides the rating until the next evaluation. The
 * service never fetches a URL: title and note come from the caller.
 *
 * The row, its view and the submission's statement are in linkRows.ts.
 */
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { type Conflict, type Forbidden, InvalidInput, NotFound, type WorkspaceNotGranted } from "../domain/errors.ts"
import type { ProjectLinkReview, ProjectLinkSubmit } from "../domain/inputs.ts"
import type { RelevanceFilter } from "../domain/enums.ts"
import type { ProjectId, ProjectLinkId } from "../domain/ids.ts"
import type { Principal } from "../domain/Principal.ts"
import type { ProjectLink } from "../domain/projectLink.ts"
import { Access, type Resolved } from "../board/Access.ts"
import { actorParams, EventLog } from "../events/EventLog.ts"
import { sqlNow } from "../infra/clock.ts"
import { changedFields, columns, type Row, submitSql, view } from "./linkRows.ts"
import { normalizeUrl } from "./normalizeUrl.ts"
import { type BoardIndex, hostKey, siteHosts, withLinksOnHost } from "./boardIndex.ts"
import { evaluateRelevance, prepareBoardIndex } from "./relevance.ts"

type AccessError = NotFound | WorkspaceNotGranted
type WriteError = AccessError | Forbidden | Conflict

const linkNotFound = (projectId: string, linkId: string) =>
  new NotFound({ message: `link ${linkId} not found in project ${projectId}` })

/** A link as clients see it: the type of the domain's schema (`domain/projectLink.ts`). */
export type ProjectLinkView = ProjectLink

export interface LinkPage {
  readonly links: ReadonlyArray<ProjectLinkView>
  readonly total: number
  readonly limit: number
  readonly offset: number
}

export type { RelevanceFilter }

/** A review, decoded with `ProjectLinkReview` (the contract's rules on each field). */
export type LinkReview = ProjectLinkReview

export class ProjectLinks extends Context.Service<
  ProjectLinks,
  {
    /** `input` was decoded with `ProjectLinkSubmit`, as every caller does; the URL is parsed here. */
    readonly submit: (
      principal: Principal,
      projectId: ProjectId,
      input: ProjectLinkSubmit
    ) => Effect.Effect<{ created: boolean; link: ProjectLinkView }, InvalidInput | WriteError>
    readonly list: (
      principal: Principal,
      projectId: ProjectId,
      query: { relevance?: RelevanceFilter | undefined; limit?: number | undefined; offset?: number | undefined }
    ) => Effect.Effect<LinkPage, InvalidInput | AccessError>
    readonly review: (
      principal: Principal,
      projectId: ProjectId,
      linkId: ProjectLinkId,
      review: LinkReview
    ) => Effect.Effect<ProjectLinkView, InvalidInput | WriteError>
    readonly evaluate: (
      principal: Principal,
      projectId: ProjectId,
      linkId: ProjectLinkId
    ) => Effect.Effect<ProjectLinkView, WriteError>
    readonly remove: (
      principal: Principal,
      projectId: ProjectId,
      linkId: ProjectLinkId
    ) => Effect.Effect<void, WriteError>
    /** The project's links rated high, oldest first (agent prompt references). */
    readonly references: (projectId: string) => Effect.Effect<ReadonlyArray<ProjectLinkView>>
  }
>()("board/core/ProjectLinks") {
  static readonly layer = Layer.effect(
    ProjectLinks,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const access = yield* Access
      const events = yield* EventLog

      const log = (
        principal: Principal,
        type: "project_link.created" | "project_link.reviewed" | "project_link.evaluated" | "project_link.deleted",
        project: Resolved,
        link: ProjectLinkView,
        previous?: Record<string, unknown>
      ) =>
        events.record(principal, {
          type,
          workspaceId: project.workspaceId,
          projectId: link.projectId,
          object: link,
          previous
        })

      /** Logs a link's update with the fields it changed (the event's `previous`); answers the link. */
      const logUpdate = (
        principal: Principal,
        type: "project_link.reviewed" | "project_link.evaluated",
        project: Resolved,
        before: ProjectLinkView,
        row: Row
      ) => {
        const after = view(row)
        return Effect.as(log(principal, type, project, after, changedFields(before, after)), after)
      }

      // The card-and-label part of a board's index costs ~10 ms to build for 1,000 cards; it is
      // kept per project and rebuilt when the board's version (counts and last changes of its
      // cards and labels, each table's pair read in one pass) moves. Of the stored links only
      // those on the rated link's site count, and only how many: counted fresh every time in the
      // version's statement, so a submit never reads the project's links (it did, all of them,
      // every time). A write committed out of order (an older transaction's timestamp) can leave
      // a rating stale until the board next changes: a heuristic can afford that.
      const indexCache = new Map<string, { version: string; index: BoardIndex }>()
      const CACHED_PROJECTS = 64

      /** The board's index for rating `link`; a stored link is its normalised URL, which is never counted (unique per project). */
      const boardIndex = (projectId: string, link: { readonly host: string; readonly normalizedUrl: string }) =>
        Effect.gen(function* () {
          // stored hosts are lower case (normalizeUrl), as siteHosts gives them
          const [host, wwwHost = host] = siteHosts(hostKey(link.host))
          const [v] = yield* sql<{ version: string; on_host: number }>`
              SELECT concat_ws(':', (SELECT concat_ws(':', count(*), max(updated_at)) FROM cards WHERE project_id = ${projectId}),
                (SELECT concat_ws(':', count(*), max(updated_at)) FROM labels WHERE project_id = ${projectId})) AS version,
                (SELECT count(*) FROM project_links WHERE project_id = ${projectId} AND host IN (${host}, ${wwwHost})
                   AND normalized_url <> ${link.normalizedUrl})::int AS on_host`.pipe(Effect.orDie)
          const cached = indexCache.get(projectId)
          if (cached !== undefined && cached.version === v!.version)
            return withLinksOnHost(cached.index, link.host, v!.on_host)
          const [cards, labels] = yield* Effect.all(
            [
              sql<{
                ref: string
                title: string
                description: string | null
              }>`SELECT ref, title, description FROM cards WHERE project_id = ${projectId}`,
              sql<{ name: string }>`SELECT name FROM labels WHERE project_id = ${projectId}`
            ],
            { concurrency: "unbounded" }
          ).pipe(Effect.orDie)
          const index = prepareBoardIndex({ cards, labels, otherLinks: [] })
          if (indexCache.size >= CACHED_PROJECTS) indexCache.delete(indexCache.keys().next().value!)
          indexCache.set(projectId, { version: v!.version, index })
          return withLinksOnHost(index, link.host, v!.on_host)
        })

      const linkOf = (projectId: string, linkId: string, lock = false) =>
        sql<Row>`SELECT ${sql.literal(columns)} FROM project_links WHERE id = ${linkId} AND project_id = ${projectId}
          ${lock ? sql`FOR UPDATE` : sql``}`.pipe(
          Effect.orDie,
          Effect.flatMap((rows) =>
            rows[0] !== undefined ? Effect.succeed(rows[0]) : Effect.fail(linkNotFound(projectId, linkId))
          )
        )

      const submit = Effect.fn("ProjectLinks.submit")(function* (
        principal: Principal,
        projectId: ProjectId,
        input: ProjectLinkSubmit
      ) {
        const normalized = normalizeUrl(input.url)
        if (!normalized.ok) return yield* new InvalidInput({ message: `url: ${normalized.error}` })
        const project = yield* access.write(principal, "project", projectId, { action: "change project links" })
        const tags = [...new Set((input.tags ?? []).map((t) => t.trim()).filter((t) => t !== ""))]
        const index = yield* boardIndex(projectId, { host: normalized.host, normalizedUrl: normalized.url })
        const rating = evaluateRelevance(
          {
            url: input.url,
            normalizedUrl: normalized.url,
            host: normalized.host,
            title: input.title ?? null,
            note: input.note ?? null,
            tags
          },
          index
        )
        const now = yield* sqlNow
        // one statement, as before events: the link and its event commit together (a submission
        // is a benchmarked write); a URL already stored inserts nothing, so it logs nothing
        const [row] = yield* sql
          .unsafe<Row>(submitSql, [
            projectId,
            input.url,
            normalized.url,
            normalized.host,
            input.title ?? null,
            input.note ?? null,
            tags,
            rating.relevance,
            rating.score,
            JSON.stringify(rating.evidence),
            principal.userId,
            now,
            project.workspaceId,
            ...actorParams(principal)
          ])
          .pipe(Effect.orDie)
        if (row !== undefined) events.committed(projectId)
        const created = row === undefined ? undefined : view(row)
        if (created !== undefined) return { created: true, link: created }
        const [existing] = yield* sql<Row>`
          SELECT ${sql.literal(columns)} FROM project_links WHERE project_id = ${projectId} AND normalized_url = ${normalized.url}`.pipe(
          Effect.orDie
        )
        return { created: false, link: view(existing!) }
      })

      const list = Effect.fn("ProjectLinks.list")(function* (
        principal: Principal,
        projectId: ProjectId,
        query: { relevance?: RelevanceFilter | undefined; limit?: number | undefined; offset?: number | undefined }
      ) {
        const limit = query.limit ?? 50
        const offset = query.offset ?? 0
        if (!Number.isInteger(limit) || limit < 1 || limit > 500)
          return yield* new InvalidInput({ message: "limit: must be a whole number from 1 to 500" })
        if (!Number.isInteger(offset) || offset < 0)
          return yield* new InvalidInput({ message: "offset: must be a whole number from 0" })
        yield* access.resolve(principal, "project", projectId)
        const filter =
          query.relevance === undefined
            ? sql`TRUE`
            : query.relevance === "unrated"
              ? sql`relevance IS NULL`
              : sql`relevance = ${query.relevance}`
        const [rows, [{ total }]] = yield* Effect.all([
          sql<Row>`SELECT ${sql.literal(columns)} FROM project_links WHERE project_id = ${projectId} AND ${filter}
            ORDER BY created_at DESC, id DESC LIMIT ${limit} OFFSET ${offset}`,
          sql<{
            total: number
          }>`SELECT count(*)::int AS total FROM project_links WHERE project_id = ${projectId} AND ${filter}`
        ]).pipe(Effect.orDie)
        return { links: rows.map(view), total, limit, offset }
      })

      const review = Effect.fn("ProjectLinks.review")(function* (
        principal: Principal,
        projectId: ProjectId,
        linkId: ProjectLinkId,
        input: LinkReview
      ) {
        if (input.reason !== undefined && input.relevance === undefined) {
          return yield* new InvalidInput({
            message: "reason: give a relevance with the reason (a reason explains a human rating)"
          })
        }
        const project = yield* access.write(principal, "project", projectId, { action: "change project links" })
        const set: Record<string, unknown> = {}
        if (input.title !== undefined) set.title = input.title
        if (input.note !== undefined) set.note = input.note
        const tags =
          input.tags === undefined ? undefined : [...new Set(input.tags.map((t) => t.trim()).filter((t) => t !== ""))]
        const now = yield* sqlNow
        const human =
          input.relevance === undefined
            ? sql``
            : sql`, relevance = ${input.relevance}, evaluation_source = 'human', reviewed_by = ${principal.userId}, reviewed_at = ${now}::timestamptz,
                 review_reason = ${input.reason ?? null}, score = NULL, evidence = NULL`
        // the old state (the event's `previous`), the change and its event in one transaction
        return yield* events.changing(
          Effect.gen(function* () {
            const before = view(yield* linkOf(projectId, linkId, true))
            const [row] = yield* sql<Row>`
          UPDATE project_links SET updated_at = ${now}::timestamptz
            ${Object.keys(set).length > 0 ? sql`, ${sql.update(set)}` : sql``}
            ${tags !== undefined ? sql`, tags = ${tags}::text[]` : sql``}
            ${human}
          WHERE id = ${linkId} AND project_id = ${projectId}
          RETURNING ${sql.literal(columns)}`.pipe(Effect.orDie)
            if (row === undefined) return yield* linkNotFound(projectId, linkId)
            return yield* logUpdate(principal, "project_link.reviewed", project, before, row)
          })
        )
      })

      const evaluate = Effect.fn("ProjectLinks.evaluate")(function* (
        principal: Principal,
        projectId: ProjectId,
        linkId: ProjectLinkId
      ) {
        const project = yield* access.write(principal, "project", projectId, { action: "change project links" })
        const link = yield* linkOf(projectId, linkId)
        const index = yield* boardIndex(projectId, { host: link.host, normalizedUrl: link.normalized_url })
        const rating = evaluateRelevance(
          {
            url: link.url,
            normalizedUrl: link.normalized_url,
            host: link.host,
            title: link.title,
            note: link.note,
            tags: link.tags
          },
          index
        )
        const now = yield* sqlNow
        // the self-join reads the old rating in the write's own statement (the event's `previous`)
        return yield* events.changing(
          Effect.gen(function* () {
            const [row] = yield* sql<Row & { old: Row }>`
          UPDATE project_links l SET relevance = ${rating.relevance}, score = ${rating.score}, evidence = ${JSON.stringify(rating.evidence)}::jsonb,
            evaluation_source = 'heuristic', reviewed_by = NULL, reviewed_at = NULL, review_reason = NULL, updated_at = ${now}::timestamptz
          FROM project_links old
          WHERE l.id = ${linkId} AND l.project_id = ${projectId} AND old.id = l.id
          RETURNING ${sql.literal(
            columns
              .split(",")
              .map((c) => `l.${c.trim()}`)
              .join(", ")
          )}, row_to_json(old) AS old`.pipe(Effect.orDie)
            if (row === undefined) return yield* linkNotFound(projectId, linkId)
            const old = typeof row.old === "string" ? (JSON.parse(row.old) as Row) : row.old
            return yield* logUpdate(principal, "project_link.evaluated", project, view(old), row)
          })
        )
      })

      const remove = Effect.fn("ProjectLinks.remove")(function* (
        principal: Principal,
        projectId: ProjectId,
        linkId: ProjectLinkId
      ) {
        const project = yield* access.write(principal, "project", projectId, {
          action: "delete project links",
          deletes: true
        })
        const deleted = yield* events
          .withEvents(
            Effect.gen(function* () {
              const [row] = yield* sql<Row>`
                DELETE FROM project_links WHERE id = ${linkId} AND project_id = ${projectId}
                RETURNING ${sql.literal(columns)}`
              // its last state
              if (row !== undefined) yield* log(principal, "project_link.deleted", project, view(row))
              return row !== undefined
            })
          )
          .pipe(Effect.orDie)
        if (!deleted) return yield* linkNotFound(projectId, linkId)
      })

      const references = (projectId: string) =>
        sql<Row>`SELECT ${sql.literal(columns)} FROM project_links WHERE project_id = ${projectId} AND relevance = 'high'
          ORDER BY created_at, id`.pipe(
          Effect.orDie,
          Effect.map((rows) => rows.map(view))
        )

      return ProjectLinks.of({ submit, list, review, evaluate, remove, references })
    })
  )
}
