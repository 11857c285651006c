/**
 * A project link's row, its REST view, and the statement that stores a submission with its
 * event (ProjectLinks.ts).
 */
import type { ProjectId, ProjectLinkId, UserId } from "../domain/ids.ts"
import type { ProjectLink } from "../domain/projectLink.ts"
import { actorSql, eventInsertSql } from "../events/EventLog.ts"
import { iso } from "../board/rows.ts"
import type { Evidence, Relevance } from "./relevance.ts"

export type Row = {
  id: string
  project_id: string
  url: string
  normalized_url: string
  host: string
  title: string | null
  note: string | null
  tags: Array<string>
  relevance: Relevance | null
  score: number | null
  evidence: unknown
  evaluation_source: "heuristic" | "human" | null
  reviewed_by: string | null
  reviewed_at: Date | null
  review_reason: string | null
  created_at: Date
  updated_at: Date
}

export const columns = `id, project_id, url, normalized_url, host, title, note, tags, relevance, score, evidence, evaluation_source,
  reviewed_by, reviewed_at, review_reason, created_at, updated_at`

/** The fields an update changed, with their old values (an event's `previous`); updatedAt always moves. */
export const changedFields = (before: ProjectLink, after: ProjectLink): Record<string, unknown> => {
  const previous: Record<string, unknown> = {}
  for (const [field, value] of Object.entries(before))
    if (field !== "updatedAt" && JSON.stringify(value) !== JSON.stringify(after[field as keyof ProjectLink]))
      previous[field] = value
  return previous
}

// A link in its REST shape (as `view` writes it), in SQL over alias `l`: the event of a submission
// is written by the submission's own statement.
const isoSql = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
const linkJsonSql = `json_build_object('id', l.id, 'projectId', l.project_id, 'url', l.url, 'normalizedUrl', l.normalized_url,
  'title', l.title, 'note', l.note, 'tags', to_json(l.tags), 'relevance', l.relevance, 'score', l.score, 'evidence', l.evidence,
  'evaluation_source', l.evaluation_source, 'reviewedBy', l.reviewed_by,
  'reviewedAt', CASE WHEN l.reviewed_at IS NOT NULL THEN ${isoSql("l.reviewed_at")} END, 'reviewReason', l.review_reason,
  'createdAt', ${isoSql("l.created_at")}, 'updatedAt', ${isoSql("l.updated_at")})`

// $1 project … $12 the time (see submit), $13 the workspace, $14 the credential's kind, $15 the
// user, $16 the credential (the event's actor)
export const submitSql = `
  WITH inserted AS (
    INSERT INTO project_links (project_id, url, normalized_url, host, title, note, tags, relevance, score, evidence, evaluation_source,
      created_by, created_at, updated_at)
    VALUES ($1::uuid, $2, $3, $4, $5, $6, $7::text[], $8, $9, $10::jsonb, 'heuristic', $11::uuid, $12::timestamptz, $12::timestamptz)
    ON CONFLICT (project_id, normalized_url) DO NOTHING
    RETURNING ${columns}
  ), ${eventInsertSql({
    name: "logged",
    from: "inserted l",
    type: "'project_link.created'",
    workspace: "$13::uuid",
    project: "l.project_id",
    card: "NULL::uuid",
    data: `json_build_object('object', ${linkJsonSql})::text`,
    actor: actorSql("$14::text", "$15", "$16"),
    at: "$12"
  })}
  SELECT * FROM inserted`

export const view = (r: Row): ProjectLink => ({
  id: r.id as ProjectLinkId,
  projectId: r.project_id as ProjectId,
  url: r.url,
  normalizedUrl: r.normalized_url,
  title: r.title,
  note: r.note,
  tags: r.tags,
  relevance: r.relevance,
  score: r.score,
  evidence:
    r.evidence === null
      ? null
      : ((typeof r.evidence === "string" ? JSON.parse(r.evidence) : r.evidence) as ReadonlyArray<Evidence>),
  evaluation_source: r.evaluation_source,
  reviewedBy: r.reviewed_by as UserId | null,
  reviewedAt: r.reviewed_at === null ? null : iso(r.reviewed_at),
  reviewReason: r.review_reason,
  createdAt: iso(r.created_at),
  updatedAt: iso(r.updated_at)
})
