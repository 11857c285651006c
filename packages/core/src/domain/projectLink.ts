/** An external link stored with a project and rated against its board. */
import { Schema } from "effect"
import { Relevance } from "./enums.ts"
import { ProjectId, ProjectLinkId, UserId } from "./ids.ts"
import { Timestamp } from "./text.ts"

/** Why a link rated as it did: one signal, with the cards or terms it matched. */
export const Evidence = Schema.Struct({
  signal: Schema.Literals(["url_match", "same_host", "shared_terms"]),
  detail: Schema.String,
  cards: Schema.optionalKey(Schema.Array(Schema.String)),
  terms: Schema.optionalKey(Schema.Array(Schema.String))
}).annotate({
  identifier: "Evidence",
  description: "One signal behind a link's rating, with the cards or terms it matched."
})
export type Evidence = typeof Evidence.Type

export const ProjectLink = Schema.Struct({
  id: ProjectLinkId,
  projectId: ProjectId,
  url: Schema.String,
  normalizedUrl: Schema.String,
  title: Schema.NullOr(Schema.String),
  note: Schema.NullOr(Schema.String),
  tags: Schema.Array(Schema.String),
  relevance: Schema.NullOr(Relevance),
  // finite: a rating is in [0, 1] (Schema.Number would document "Infinity" and "NaN" strings too)
  score: Schema.NullOr(Schema.Finite),
  evidence: Schema.NullOr(Schema.Array(Evidence)),
  evaluation_source: Schema.NullOr(Schema.Literals(["heuristic", "human"])),
  reviewedBy: Schema.NullOr(UserId),
  reviewedAt: Schema.NullOr(Timestamp),
  reviewReason: Schema.NullOr(Schema.String),
  createdAt: Timestamp,
  updatedAt: Timestamp
}).annotate({
  identifier: "ProjectLink",
  description: "An external link stored with a project and rated against its board (score in [0, 1])."
})
export type ProjectLink = typeof ProjectLink.Type
