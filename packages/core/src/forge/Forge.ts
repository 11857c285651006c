/**
 * From card to shipped change (issue 31, CONTRACT.md): repositories connected to a project
 * (admins connect and remove them; the webhook secret is sealed at rest and shown once), the
 * forge's deliveries (signature checked on the raw body first, then de-duplicated by delivery id
 * in the database, then read leniently and applied in one transaction: forgeSync.ts), a card's
 * pull requests, and deployments that mark cards shipped.
 */
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import * as crypto from "node:crypto"
import { AppConfig } from "../Config.ts"
import { Access } from "../board/Access.ts"
import { AgentSessions } from "../board/AgentSessions.ts"
import { Cards } from "../board/Cards.ts"
import { iso } from "../board/rows.ts"
import {
  Conflict,
  type Forbidden,
  InvalidInput,
  NotFound,
  Unauthenticated,
  type WorkspaceNotGranted
} from "../domain/errors.ts"
import type {
  Deployment,
  DeploymentCreate,
  ForgeProvider,
  PullRequest,
  Repository,
  RepositoryCreate,
  RepositoryWithSecret
} from "../domain/forge.ts"
import type { CardId } from "../domain/ids.ts"
import { isUuid } from "../domain/ids.ts"
import type { Principal } from "../domain/Principal.ts"
import { type EventActor, EventLog } from "../events/EventLog.ts"
import { sqlNow } from "../infra/clock.ts"
import { ServerSecret } from "../infra/Secret.ts"
import { mintWebhookSecret, openSecret, sealSecret } from "../webhooks/secretBox.ts"
import {
  markCte,
  PULL_REQUEST_SELECT,
  type PullRequestRow,
  pullRequestView,
  REPOSITORY_COLUMNS,
  type RepositoryRow,
  repositoryView
} from "./forgeRows.ts"
import { type Connection, forgeSync } from "./forgeSync.ts"
import { readPayload, UnreadablePayload } from "./payloads.ts"
import { deliveryHeaders, type Headers, signatureValid } from "./signatures.ts"

type AccessError = NotFound | WorkspaceNotGranted

/** What became of a delivery: applied, a delivery id seen before, or an event the service does not read. */
export type DeliveryOutcome = "applied" | "replayed" | "ignored"

export class Forge extends Context.Service<
  Forge,
  {
    readonly connect: (
      principal: Principal,
      projectId: string,
      input: RepositoryCreate
    ) => Effect.Effect<RepositoryWithSecret, Conflict | Forbidden | AccessError>
    readonly repositories: (
      principal: Principal,
      projectId: string
    ) => Effect.Effect<ReadonlyArray<Repository>, AccessError>
    readonly disconnect: (principal: Principal, id: string) => Effect.Effect<void, Conflict | Forbidden | AccessError>
    /** A forge's webhook request: its repository, headers (lower-case names) and raw body. */
    readonly receive: (
      repositoryId: string,
      headers: Headers,
      body: Uint8Array
    ) => Effect.Effect<DeliveryOutcome, NotFound | Unauthenticated | InvalidInput>
    readonly pullRequests: (
      principal: Principal,
      cardId: CardId
    ) => Effect.Effect<ReadonlyArray<PullRequest>, AccessError>
    readonly deploy: (
      principal: Principal,
      projectId: string,
      input: DeploymentCreate
    ) => Effect.Effect<Deployment, Conflict | Forbidden | AccessError>
  }
>()("board/core/Forge") {
  static readonly layer = Layer.effect(
    Forge,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const access = yield* Access
      const events = yield* EventLog
      const cards = yield* Cards
      const sessions = yield* AgentSessions
      const config = yield* AppConfig
      const keys = yield* ServerSecret
      const view = (r: RepositoryRow) => repositoryView(config.publicUrl, r)

      const connect = Effect.fn("Forge.connect")(function* (
        principal: Principal,
        projectId: string,
        input: RepositoryCreate
      ) {
        yield* access.write(principal, "project", projectId, { needed: "admin", action: "connect repositories" })
        const id = crypto.randomUUID()
        const secret = mintWebhookSecret()
        const now = yield* sqlNow
        const rows = yield* sql
          .unsafe<RepositoryRow>(
            `INSERT INTO repositories AS r (id, project_id, provider, name, secret_box, created_by, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7::timestamptz)
             ON CONFLICT DO NOTHING RETURNING ${REPOSITORY_COLUMNS}`,
            [id, projectId, input.provider, input.name, sealSecret(keys.webhooks, id, secret), principal.userId, now]
          )
          .pipe(Effect.orDie)
        if (rows[0] === undefined)
          return yield* new Conflict({
            message: `${input.provider} repository ${input.name} is already connected to this project; remove it first to get a new secret`
          })
        return { ...view(rows[0]), webhookSecret: secret }
      })

      const repositories = Effect.fn("Forge.repositories")(function* (principal: Principal, projectId: string) {
        yield* access.resolve(principal, "project", projectId)
        const rows = yield* sql
          .unsafe<RepositoryRow>(
            `SELECT ${REPOSITORY_COLUMNS} FROM repositories r WHERE r.project_id = $1 ORDER BY r.created_at, r.id`,
            [projectId]
          )
          .pipe(Effect.orDie)
        return rows.map(view)
      })

      const disconnect = Effect.fn("Forge.disconnect")(function* (principal: Principal, id: string) {
        const what = `repository ${id}`
        if (!isUuid(id)) return yield* new NotFound({ message: `${what} not found` })
        const [row] = yield* sql<{ project_id: string }>`SELECT project_id FROM repositories WHERE id = ${id}`.pipe(
          Effect.orDie
        )
        if (row === undefined) return yield* new NotFound({ message: `${what} not found` })
        yield* access.write(principal, "project", row.project_id, {
          needed: "admin",
          action: "remove repositories",
          what,
          deletes: true
        })
        // the cards linked to its pull requests lose those links: their marks are written again
        yield* sql
          .withTransaction(
            Effect.gen(function* () {
              const linked = yield* sql<{ id: string }>`
                SELECT k.id FROM cards k WHERE k.id IN (SELECT cpr.card_id FROM card_pull_requests cpr
                  JOIN pull_requests pr ON pr.id = cpr.pull_request_id WHERE pr.repository_id = ${id})
                ORDER BY k.id FOR UPDATE`
              yield* sql`DELETE FROM repositories WHERE id = ${id}`
              if (linked.length > 0)
                yield* sql.unsafe(`WITH ${markCte("SELECT unnest($1::uuid[])")} SELECT count(*) FROM marked`, [
                  linked.map((r) => r.id)
                ])
            })
          )
          .pipe(Effect.orDie)
      })

      /** Ships the project's cards linked to one of `commits` (a merged pull request's merge commit, or a pushed commit). */
      const ship = (
        projectId: string,
        workspaceId: string,
        environment: string,
        commits: ReadonlyArray<string>,
        actor: EventActor
      ) =>
        Effect.gen(function* () {
          const now = yield* sqlNow
          const shas = [...new Set(commits.map((c) => c.toLowerCase()))]
          // a card already shipped to this environment stays as it was (CI may deploy a range twice)
          const shipped = yield* sql
            .unsafe<{ id: string }>(
              `UPDATE cards c SET shipped_at = $3::timestamptz, shipped_to = $4
               WHERE c.project_id = $1::uuid AND c.shipped_to IS DISTINCT FROM $4 AND (
                 EXISTS (SELECT 1 FROM card_pull_requests cpr JOIN pull_requests pr ON pr.id = cpr.pull_request_id
                   JOIN unnest($2::text[]) s(sha) ON pr.merge_commit_sha LIKE s.sha || '%'
                   WHERE cpr.card_id = c.id AND pr.state = 'merged')
                 OR EXISTS (SELECT 1 FROM card_commits cc JOIN unnest($2::text[]) s(sha) ON cc.sha LIKE s.sha || '%'
                   WHERE cc.card_id = c.id))
               RETURNING c.id`,
              [projectId, shas, now, environment]
            )
            .pipe(Effect.orDie)
          const ids = shipped.map((r) => r.id)
          const loaded = yield* cards.load(ids)
          yield* events.record(
            actor,
            loaded.map((card) => ({
              type: "card.shipped" as const,
              workspaceId,
              projectId,
              cardId: card.id,
              object: card
            }))
          )
          return ids
        })

      const deploy = Effect.fn("Forge.deploy")(function* (
        principal: Principal,
        projectId: string,
        input: DeploymentCreate
      ) {
        const project = yield* access.write(principal, "project", projectId, { action: "record deployments" })
        return yield* events.changing(
          Effect.gen(function* () {
            const ids = yield* ship(projectId, project.workspaceId, input.environment, input.commits, principal)
            const now = yield* sqlNow
            const [row] = yield* sql
              .unsafe<{ id: string; created_at: Date | string }>(
                `INSERT INTO deployments (project_id, environment, commits, shipped_card_ids, created_by, created_at)
                 VALUES ($1::uuid, $2, $3::text[], $4::uuid[], $5::uuid, $6::timestamptz) RETURNING id, created_at`,
                [projectId, input.environment, [...input.commits], ids, principal.userId, now]
              )
              .pipe(Effect.orDie)
            return {
              id: row!.id,
              environment: input.environment,
              shippedCardIds: ids as unknown as ReadonlyArray<CardId>,
              createdAt: iso(row!.created_at)
            }
          })
        )
      })

      const sync = forgeSync({
        sql,
        events,
        cards,
        sessions,
        ship: (projectId, workspaceId, environment, commits, actor) =>
          ship(projectId, workspaceId, environment, commits, actor)
      })

      const receive = Effect.fn("Forge.receive")(function* (repositoryId: string, headers: Headers, body: Uint8Array) {
        const what = `repository ${repositoryId}`
        if (!isUuid(repositoryId)) return yield* new NotFound({ message: `${what} not found` })
        const [repo] = yield* sql
          .unsafe<Connection & { secret_box: string; automation: unknown }>(
            `SELECT r.id, r.project_id, r.provider, r.name, r.secret_box, p.ref_prefix, p.workspace_id, p.automation
             FROM repositories r JOIN projects p ON p.id = r.project_id WHERE r.id = $1`,
            [repositoryId]
          )
          .pipe(Effect.orDie)
        if (repo === undefined) return yield* new NotFound({ message: `${what} not found` })
        const secret = openSecret(keys.webhooks, repo.id, repo.secret_box)
        const valid =
          secret !== undefined && (yield* Effect.promise(() => signatureValid(repo.provider, secret, headers, body)))
        if (!valid)
          return yield* new Unauthenticated({
            invalidToken: false,
            message: signatureMissing(repo.provider, headers)
              ? `missing signature: the webhook must be set up with this repository's secret (${signatureHeader[repo.provider]})`
              : "wrong signature: the webhook's secret is not this repository's; copy the secret shown when it was connected, or reconnect it"
          })
        const { event, delivery } = deliveryHeaders(repo.provider, headers)
        if (event === undefined || event === "")
          return yield* new InvalidInput({
            message: `missing event header: a ${repo.provider} webhook names its event`
          })
        let payload: unknown
        try {
          payload = JSON.parse(
            Buffer.from(body)
              .toString("utf8")
              .replace(/^payload=/, "")
          )
        } catch {
          return yield* new InvalidInput({
            message: "malformed JSON body: set the webhook's content type to application/json"
          })
        }
        let change: ReturnType<typeof readPayload>
        try {
          change = readPayload(repo.provider, event, payload)
        } catch (e) {
          if (e instanceof UnreadablePayload) return yield* new InvalidInput({ message: `${event}: ${e.message}` })
          throw e
        }
        if (change.kind === "ignored") return "ignored" as const
        if (change.repository === undefined || change.repository.toLowerCase() !== repo.name.toLowerCase())
          return yield* new InvalidInput({
            message: `this delivery is for repository ${change.repository ?? "(none named)"}, but this connection is for ${repo.name}; give each repository its own connection`
          })
        const automation = parseAutomation(repo.automation)
        // the delivery id, or the body's digest when a forge sends none, so a replay is still one
        const id = delivery ?? crypto.createHash("sha256").update(body).digest("hex")
        const outcome = yield* events.changing(
          Effect.gen(function* () {
            const now = yield* sqlNow
            const fresh = yield* sql
              .unsafe<{ n: number }>(
                `INSERT INTO forge_deliveries (repository_id, delivery_id, event, created_at)
                 VALUES ($1::uuid, $2, $3, $4::timestamptz) ON CONFLICT DO NOTHING RETURNING 1 AS n`,
                [repo.id, id.slice(0, 200), event.slice(0, 100), now]
              )
              .pipe(Effect.orDie)
            if (fresh.length === 0) return { replayed: true, moves: [] }
            return { replayed: false, moves: yield* sync.apply({ ...repo, automation }, change) }
          })
        )
        if (outcome.replayed) return "replayed" as const
        for (const move of outcome.moves) yield* sync.advance(repo.provider, move)
        return "applied" as const
      })

      const pullRequests = Effect.fn("Forge.pullRequests")(function* (principal: Principal, cardId: CardId) {
        yield* access.resolve(principal, "card", cardId)
        const rows = yield* sql
          .unsafe<PullRequestRow>(
            `${PULL_REQUEST_SELECT} WHERE cpr.card_id = $1::uuid ORDER BY cpr.created_at, pr.id`,
            [cardId]
          )
          .pipe(Effect.orDie)
        return rows.map(pullRequestView)
      })

      return Forge.of({ connect, repositories, disconnect, receive, pullRequests, deploy })
    })
  )
}

const signatureHeader: Record<ForgeProvider, string> = {
  github: "X-Hub-Signature-256",
  gitlab: "X-Gitlab-Token",
  gitea: "X-Gitea-Signature",
  forgejo: "X-Forgejo-Signature"
}

const signatureMissing = (provider: ForgeProvider, headers: Headers) => {
  const names =
    provider === "forgejo" ? ["x-forgejo-signature", "x-gitea-signature"] : [signatureHeader[provider].toLowerCase()]
  return names.every((n) => headers[n] === undefined || headers[n] === "")
}

const parseAutomation = (v: unknown): Connection["automation"] => {
  const o = (typeof v === "string" ? JSON.parse(v) : v) as Record<string, unknown> | null
  return { pullRequestOpened: o?.pullRequestOpened !== false, pullRequestMerged: o?.pullRequestMerged !== false }
}
