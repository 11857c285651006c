/** Composition of the core: config → database (+ migrations) → services. */
import { Effect, Layer, Option } from "effect"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Accounts } from "./auth/Accounts.ts"
import type { PasswordHasher } from "./auth/passwords.ts"
import { Credentials } from "./auth/Credentials.ts"
import { CredentialCache } from "./auth/CredentialCache.ts"
import { CredentialWatch } from "./auth/CredentialWatch.ts"
import { WebSessions } from "./auth/WebSessions.ts"
import { Oidc } from "./auth/Oidc.ts"
import { McpSessionStore } from "./mcp/McpSessionStore.ts"
import { issuePasswordReset, PasswordResets } from "./auth/PasswordResets.ts"
import { Invitations } from "./board/Invitations.ts"
import { Mailer } from "./mail/Mailer.ts"
import { Access } from "./board/Access.ts"
import { EventFeed } from "./events/EventFeed.ts"
import { EventLog } from "./events/EventLog.ts"
import { History } from "./events/History.ts"
import { Boards } from "./board/Boards.ts"
import { CardLinks } from "./board/CardLinks.ts"
import { Cards } from "./board/Cards.ts"
import { CardArchive } from "./board/CardArchive.ts"
import { AgentSessions } from "./board/AgentSessions.ts"
import { Columns } from "./board/Columns.ts"
import { Comments } from "./board/Comments.ts"
import { Labels } from "./board/Labels.ts"
import { Lookups } from "./board/Lookups.ts"
import { Search } from "./board/Search.ts"
import { Subtasks } from "./board/Subtasks.ts"
import { Workspaces } from "./board/Workspaces.ts"
import { WorkspaceAdmin } from "./board/WorkspaceAdmin.ts"
import { Projects } from "./board/Projects.ts"
import { AgentMembers } from "./board/AgentMembers.ts"
import { Members } from "./board/Members.ts"
import { ProjectLinks } from "./links/ProjectLinks.ts"
import { Commands } from "./nlu/Commands.ts"
import { Prompts } from "./prompt/Prompts.ts"
import { OAuth } from "./oauth/OAuth.ts"
import { Intake } from "./intake/Intake.ts"
import { IntakeTokens } from "./intake/IntakeTokens.ts"
import { DeliveriesLive } from "./webhooks/Deliveries.ts"
import { JobsLive } from "./Jobs.ts"
import { Webhooks } from "./webhooks/Webhooks.ts"
import { Forge } from "./forge/Forge.ts"
import { DesktopReleases } from "./desktop/DesktopReleases.ts"
import { BlobsLive } from "./infra/BlobsLive.ts"
import { RateBudgetLive } from "./infra/RateBudget.ts"
import { Readiness } from "./infra/Readiness.ts"
import { AppConfig, type AppConfigValues } from "./Config.ts"
import { NotFound } from "./domain/errors.ts"
import { dumpEmbedded, EmbeddedDatabase, layerOwner } from "./infra/Database.ts"
import { recordFileStore } from "./infra/fileStoreRecord.ts"
import { describeFiles } from "./infra/operatorTarget.ts"
import { AdminOperations, layerAdminChannel } from "./infra/AdminChannel.ts"
import { SqlClient } from "effect/sql"
import { runMigrations } from "./infra/Migrations.ts"
import { layerRedisReached } from "./infra/redisReach.ts"
import { deriveKeys, resolveSecret, ServerSecret } from "./infra/Secret.ts"

export const MigrationsLive = Layer.effectDiscard(
  runMigrations().pipe(
    Effect.tap((ran) =>
      ran.length > 0
        ? Effect.logInfo(`applied migrations: ${ran.map(([id, name]) => `${id}_${name}`).join(", ")}`)
        : Effect.void
    )
  )
).pipe(Layer.provide(NodeServices.layer))

export const ServicesLive = (hasher?: PasswordHasher) =>
  // natural-language commands act through the other services, readiness asks the database
  // and the rate-limit store, the webhook worker hears the event log and the webhooks, and the
  // background jobs (Jobs.ts) run the services' passes, so they sit on top
  Layer.mergeAll(Commands.layer, Readiness.layer, DeliveriesLive, JobsLive).pipe(
    Layer.provideMerge(
      Layer.mergeAll(
        hasher === undefined ? Accounts.layer : Accounts.layerWith(hasher),
        hasher === undefined ? PasswordResets.layer : PasswordResets.layerWith(hasher),
        Credentials.layer,
        Oidc.layer,
        Workspaces.layer,
        WorkspaceAdmin.layer,
        Projects.layer,
        AgentMembers.layer,
        Members.layer,
        Columns.layer,
        Labels.layer,
        Subtasks.layer,
        Boards.layer,
        CardArchive.layer,
        Search.layer,
        Prompts.layer,
        IntakeTokens.layer,
        Intake.layer,
        Webhooks.layer,
        Forge.layer,
        History.layer,
        EventFeed.layer,
        DesktopReleases.layer.pipe(Layer.provideMerge(BlobsLive))
      ).pipe(
        // signup joins a workspace by invitation (in the signup's transaction)
        Layer.provideMerge(Invitations.layer),
        // a person's comment wakes an agent session waiting for input (in the comment's transaction)
        Layer.provideMerge(Comments.layer),
        Layer.provideMerge(AgentSessions.layer),
        Layer.provideMerge(
          Layer.mergeAll(ProjectLinks.layer, Cards.layer, CardLinks.layer, Lookups.layer, CredentialWatch.layer)
        ),
        Layer.provideMerge(
          Layer.mergeAll(Access.layer, OAuth.layer, EventLog.layer, WebSessions.layer, McpSessionStore.layer)
        ),
        // signup and login count against budgets too (Accounts' per-account login limit)
        Layer.provideMerge(Layer.mergeAll(CredentialCache.layer, RateBudgetLive, Mailer.layer))
      )
    )
  )

/** What operator commands run beside the server ask it to do (AdminChannel.ts). */
const AdminOperationsLive = Layer.effect(
  AdminOperations,
  Effect.gen(function* () {
    const sql = yield* SqlClient.SqlClient
    const releases = yield* DesktopReleases
    const config = yield* AppConfig
    // the admin channel runs only on an embedded database, which is then always there
    const embedded = yield* Effect.serviceOption(EmbeddedDatabase)
    return AdminOperations.of({
      backup: (file) =>
        Option.isNone(embedded)
          ? Effect.fail(new Error("this server has no embedded database to back up"))
          : dumpEmbedded(file).pipe(
              Effect.provideService(SqlClient.SqlClient, sql),
              Effect.provideService(EmbeddedDatabase, embedded.value)
            ),
      resetPassword: (email) =>
        issuePasswordReset(email).pipe(
          Effect.provideService(SqlClient.SqlClient, sql),
          Effect.provideService(AppConfig, config),
          Effect.flatMap((link) =>
            link === undefined
              ? Effect.fail(new NotFound({ message: "no account has this email" }))
              : Effect.succeed(link)
          )
        ),
      migrate: () =>
        runMigrations().pipe(Effect.provideService(SqlClient.SqlClient, sql), Effect.provide(NodeServices.layer)),
      publish: (input, onProgress) =>
        // settings that would store the files elsewhere are a mistake to report, not to ignore
        input.store !== describeFiles(config)
          ? Effect.fail(
              new Error(
                `the server stores desktop builds in ${describeFiles(config)}, but this command's settings say ${input.store}; run it with the server's S3_ and DATA_DIR settings`
              )
            )
          : Effect.map(releases.publish({ ...input, onProgress }), (release) => ({
              release,
              files: describeFiles(config)
            }))
    })
  })
)

/** Everything the front ends need, for one configuration. */
export const coreLayer = (config: AppConfigValues, options: { readonly hasher?: PasswordHasher } = {}) => {
  const base = Layer.mergeAll(
    Layer.succeed(AppConfig, config),
    // built with the layer, not when it is described: a DATA_DIR that cannot be created is then
    // a start failure like the others (one line), not an exception thrown out of the composition
    Layer.sync(ServerSecret, () => deriveKeys(resolveSecret(config.secret, config.dataDir)))
  )
  // start-up order: Redis reached, then the database opened and migrated (the listener, when
  // there is one, was bound before this layer is built: http/Server.ts)
  const migrated = MigrationsLive.pipe(
    Layer.provideMerge(layerOwner(config, true)),
    Layer.provide(layerRedisReached(config))
  )
  // on PostgreSQL, operator commands elsewhere learn from the database where this server keeps files
  const database =
    config.databaseUrl === undefined
      ? migrated
      : Layer.effectDiscard(recordFileStore(config)).pipe(Layer.provideMerge(migrated))
  const services = ServicesLive(options.hasher).pipe(Layer.provideMerge(database), Layer.provideMerge(base))
  // the owner of an embedded database on disk takes the operator commands run beside it
  if (config.databaseUrl !== undefined || config.dataDir === "memory:") return services
  const admin = layerAdminChannel(config.dataDir).pipe(Layer.provide(AdminOperationsLive))
  return Layer.provideMerge(admin, services)
}

/** Every service the core provides: what front ends and extra routes may require. */
export type CoreServices = ReturnType<typeof coreLayer> extends Layer.Layer<infer A, infer _E, infer _R> ? A : never
