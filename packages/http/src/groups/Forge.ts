/**
 * CONTRACT.md "From card to shipped change": repositories connected to a project, a card's pull
 * requests, deployments. The forges' own webhook requests arrive at `POST
 * /api/v1/forge-hooks/{repositoryId}` (forge/ForgeHookRoutes.ts), outside this contract: the
 * signature is checked on the raw body, which a schema-decoded payload would not keep.
 */
import {
  CardId,
  checkedId,
  Deployment,
  DeploymentCreate,
  ProjectId,
  PullRequest,
  Repository,
  RepositoryCreate,
  RepositoryWithSecret,
  Uuid
} from "@board/core/contract"
import { Schema } from "effect"
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "effect/http-api"
import { BadRequest, Conflict, Forbidden, NotFound } from "../errors.ts"
import { UserAuth } from "../middleware/Authentication.ts"
import { doc } from "../schemas.ts"

const projectId = checkedId(ProjectId)

export class ForgeGroup extends HttpApiGroup.make("forge")
  .add(
    HttpApiEndpoint.post("connect", "/v1/projects/:id/repositories", {
      params: { id: projectId },
      payload: RepositoryCreate,
      success: RepositoryWithSecret.pipe(HttpApiSchema.status(201)),
      error: [BadRequest, Forbidden, NotFound, Conflict]
    }).annotateMerge(
      doc(
        "Connect a repository",
        "Connects a GitHub, GitLab, Gitea or Forgejo repository to the project (admins). Give the answer's `webhookUrl` and `webhookSecret` to the forge's webhook settings: the secret is shown this once only. Its pull requests and commits then link to the cards they name."
      )
    )
  )
  .add(
    HttpApiEndpoint.get("repositories", "/v1/projects/:id/repositories", {
      params: { id: projectId },
      success: Schema.Array(Repository),
      error: [BadRequest, Forbidden, NotFound]
    }).annotateMerge(
      doc("List a project's repositories", "The repositories connected to the project, without secrets.")
    )
  )
  .add(
    HttpApiEndpoint.delete("disconnect", "/v1/repositories/:id", {
      params: { id: Uuid },
      success: HttpApiSchema.NoContent,
      error: [Forbidden, NotFound, Conflict]
    }).annotateMerge(
      doc(
        "Remove a repository",
        "Disconnects a repository (admins): its deliveries are refused from now on; its pull requests leave the cards."
      )
    )
  )
  .add(
    HttpApiEndpoint.get("pullRequests", "/v1/cards/:id/pull-requests", {
      params: { id: checkedId(CardId) },
      success: Schema.Array(PullRequest),
      error: [BadRequest, Forbidden, NotFound]
    }).annotateMerge(
      doc(
        "List a card's pull requests",
        "The pull requests (GitLab: merge requests) that name the card, with state, close intent, checks and review, as the forge last reported."
      )
    )
  )
  .add(
    HttpApiEndpoint.post("deploy", "/v1/projects/:id/deployments", {
      params: { id: projectId },
      payload: DeploymentCreate,
      success: Deployment.pipe(HttpApiSchema.status(201)),
      error: [BadRequest, Forbidden, NotFound, Conflict]
    }).annotateMerge(
      doc(
        "Record a deployment",
        "Records the commits deployed to an environment: every card of the project linked to a merged pull request whose merge commit, or to a pushed commit, is among `commits` is shipped (`shippedAt`, `shippedTo`, event `card.shipped`). `board ship --env ENV` computes the commits with git."
      )
    )
  )
  .middleware(UserAuth)
  .annotateMerge(
    OpenApi.annotations({
      title: "Forges",
      description:
        "Repositories connected to a project (GitHub, GitLab, Gitea, Forgejo), the pull requests that name a card, and deployments that ship cards. The forges' own deliveries arrive at `POST /v1/forge-hooks/{repositoryId}`, signed (docs/forges.md)."
    })
  ) {}
