/** SPEC.md's "Project links" section, and the agent prompt of a card. */
import {
  checkedId,
  CardId,
  limits,
  MaxString,
  ProjectId,
  ProjectLink,
  ProjectLinkId,
  PromptVariant,
  Relevance,
  RelevanceFilter
} from "@board/core/contract"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { BadRequest, Forbidden, NotFound } from "../errors.ts"
import { UserAuth } from "../middleware/Authentication.ts"
import { documentParameters, integerSchema, QueryInt } from "../schemas.ts"

const Tags = Schema.Array(MaxString(limits.linkTag)).check(
  Schema.isMaxLength(limits.linkTags, { message: `must have at most ${limits.linkTags} tags` })
)
// the core parses the rest (WHATWG URL, after trimming); the document adds `format: uri`
const Url = MaxString(limits.linkUrl)
  .check(Schema.isPattern(/^\s*[Hh][Tt][Tt][Pp][Ss]?:/u, { message: "must be an absolute http or https URL" }))
  .annotate({ format: "uri" })
const projectId = checkedId(ProjectId)
const params = { projectId, linkId: checkedId(ProjectLinkId) }
const Page = { limit: { minimum: 1, maximum: 500 }, offset: { minimum: 0 } } as const

export class LinksGroup extends HttpApiGroup.make("links")
  .add(
    HttpApiEndpoint.get("list", "/v1/projects/:projectId/links", {
      params: { projectId },
      query: {
        relevance: Schema.optionalKey(RelevanceFilter),
        limit: Schema.optionalKey(QueryInt(Page.limit)),
        offset: Schema.optionalKey(QueryInt(Page.offset))
      },
      success: Schema.Struct({
        links: Schema.Array(ProjectLink),
        total: Schema.Int,
        limit: Schema.Int,
        offset: Schema.Int
      }),
      error: [BadRequest, Forbidden, NotFound]
    }).annotate(
      OpenApi.Transform,
      documentParameters({ replace: { limit: integerSchema(Page.limit), offset: integerSchema(Page.offset) } })
    )
  )
  .add(
    HttpApiEndpoint.post("submit", "/v1/projects/:projectId/links", {
      params: { projectId },
      payload: Schema.Struct({
        url: Url,
        title: Schema.optionalKey(MaxString(limits.linkTitle)),
        note: Schema.optionalKey(MaxString(limits.linkNote)),
        tags: Schema.optionalKey(Tags)
      }),
      success: [
        Schema.Struct({ created: Schema.Literal(true), link: ProjectLink }).pipe(HttpApiSchema.status(201)),
        Schema.Struct({ created: Schema.Literal(false), link: ProjectLink })
      ],
      error: [BadRequest, Forbidden, NotFound]
    })
  )
  .add(
    HttpApiEndpoint.patch("review", "/v1/projects/:projectId/links/:linkId", {
      params,
      payload: Schema.Struct({
        title: Schema.optionalKey(Schema.NullOr(MaxString(limits.linkTitle))),
        note: Schema.optionalKey(Schema.NullOr(MaxString(limits.linkNote))),
        tags: Schema.optionalKey(Tags),
        relevance: Schema.optionalKey(Relevance),
        reason: Schema.optionalKey(MaxString(limits.linkReason))
      }),
      success: Schema.Struct({ link: ProjectLink }),
      error: [BadRequest, Forbidden, NotFound]
      // SPEC.md: `reason` requires `relevance` (the core refuses it alone with 400)
    }).annotate(OpenApi.Transform, (op) => {
      op.requestBody.content["application/json"].schema.dependentRequired = { reason: ["relevance"] }
      return op
    })
  )
  .add(
    HttpApiEndpoint.delete("remove", "/v1/projects/:projectId/links/:linkId", {
      params,
      success: Schema.Struct({ success: Schema.Literal(true) }),
      error: [Forbidden, NotFound]
    })
  )
  .add(
    HttpApiEndpoint.post("evaluate", "/v1/projects/:projectId/links/:linkId/evaluate", {
      params,
      success: Schema.Struct({ link: ProjectLink }),
      error: [Forbidden, NotFound]
    })
  )
  .add(
    HttpApiEndpoint.get("prompt", "/v1/cards/:id/prompt", {
      params: { id: checkedId(CardId) },
      query: { variant: Schema.optionalKey(PromptVariant) },
      success: Schema.Struct({ prompt: Schema.String, variant: PromptVariant }),
      error: [BadRequest, Forbidden, NotFound]
    })
  )
  .middleware(UserAuth)
  .annotateMerge(OpenApi.annotations({ title: "Project links and agent prompts" })) {}
