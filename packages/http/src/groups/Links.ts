/** SPEC.md's "Project links" section, and the agent prompt of a card. */
import {
  CardId,
  checkedId,
  ProjectId,
  ProjectLink,
  ProjectLinkId,
  ProjectLinkReview,
  ProjectLinkSubmit,
  PromptVariant,
  RelevanceFilter
} from "@board/core/contract"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { BadRequest, Forbidden, NotFound, Conflict } from "../errors.ts"
import { UserAuth } from "../middleware/Authentication.ts"
import { documentParameters, integerSchema, QueryInt, doc } from "../schemas.ts"

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
    })
      .annotateMerge(
        doc(
          "List a project's links",
          "The project's stored links, newest first, each with its rating; filter by `relevance` (or `unrated`), paged by `limit` and `offset`."
        )
      )
      .annotate(
        OpenApi.Transform,
        documentParameters({ replace: { limit: integerSchema(Page.limit), offset: integerSchema(Page.offset) } })
      )
  )
  .add(
    HttpApiEndpoint.post("submit", "/v1/projects/:projectId/links", {
      params: { projectId },
      payload: ProjectLinkSubmit,
      success: [
        Schema.Struct({ created: Schema.Literal(true), link: ProjectLink }).pipe(HttpApiSchema.status(201)),
        Schema.Struct({ created: Schema.Literal(false), link: ProjectLink })
      ],
      error: [BadRequest, Forbidden, NotFound, Conflict]
    }).annotateMerge(
      doc(
        "Submit a link",
        "Stores an external link with the project and rates it against the board before answering (the URL is never fetched: send its title and note). 201 when stored; 200 with `created: false` when the same page was already stored (tracking parameters, fragment and trailing slash do not count)."
      )
    )
  )
  .add(
    HttpApiEndpoint.patch("review", "/v1/projects/:projectId/links/:linkId", {
      params,
      payload: ProjectLinkReview,
      success: Schema.Struct({ link: ProjectLink }),
      error: [BadRequest, Forbidden, NotFound, Conflict]
      // SPEC.md: `reason` requires `relevance` (the core refuses it alone with 400)
    })
      .annotateMerge(
        doc(
          "Review a link",
          "Edits a link's title, note or tags, or rates it by hand: setting `relevance` records a human review (with an optional `reason`) and clears the heuristic score and evidence."
        )
      )
      .annotate(OpenApi.Transform, (op) => {
        op.requestBody.content["application/json"].schema.dependentRequired = { reason: ["relevance"] }
        return op
      })
  )
  .add(
    HttpApiEndpoint.delete("remove", "/v1/projects/:projectId/links/:linkId", {
      params,
      success: Schema.Struct({ success: Schema.Literal(true) }),
      error: [Forbidden, NotFound, Conflict]
    }).annotateMerge(doc("Delete a link", "Deletes a stored link."))
  )
  .add(
    HttpApiEndpoint.post("evaluate", "/v1/projects/:projectId/links/:linkId/evaluate", {
      params,
      success: Schema.Struct({ link: ProjectLink }),
      error: [Forbidden, NotFound, Conflict]
    }).annotateMerge(
      doc(
        "Re-rate a link",
        "Reruns the heuristic rating against the board as it is now, also replacing a human review."
      )
    )
  )
  .add(
    HttpApiEndpoint.get("prompt", "/v1/cards/:id/prompt", {
      params: { id: checkedId(CardId) },
      query: { variant: Schema.optionalKey(PromptVariant) },
      success: Schema.Struct({ prompt: Schema.String, variant: PromptVariant }),
      error: [BadRequest, Forbidden, NotFound]
    }).annotateMerge(
      doc(
        "Get an agent prompt for a card",
        "A prompt for a coding agent built from the card, its subtasks and linked cards: `analysis` (understand and plan), `draft` (design a solution) or `execute` (implement fully, the default)."
      )
    )
  )
  .middleware(UserAuth)
  .annotateMerge(
    OpenApi.annotations({
      title: "Project links and agent prompts",
      description:
        "External links stored with a project and rated against its board, and the prompts an agent can be given for a card."
    })
  ) {}
