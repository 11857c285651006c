/** Composition of the core: config → database (+ migrations) → services. */
import { Effect, Layer } from "effect"
import * as NodeServices from "@effect/platform-node/NodeServices"
import { Accounts } from "./auth/Accounts.ts"
import type { PasswordHasher } from "./auth/passwords.ts"
import { Credentials } from "./auth/Credentials.ts"
import { CredentialCache } from "./auth/CredentialCache.ts"
import { Access } from "./board/Access.ts"
import { Boards } from "./board/Boards.ts"
import { CardLinks } from "./board/CardLinks.ts"
import { Cards } from "./board/Cards.ts"
import { Columns } from "./board/Columns.ts"
import { Labels } from "./board/Labels.ts"
import { Search } from "./board/Search.ts"
import { Subtasks } from "./board/Subtasks.ts"
import { Workspaces } from "./board/Workspaces.ts"
import { ProjectLinks } from "./links/ProjectLinks.ts"
import { Commands } from "./nlu/Commands.ts"
import { Prompts } from "./prompt/Prompts.ts"
import { OAuth } from "./oauth/OAuth.ts"
import { Intake } from "./intake/Intake.ts"
import { IntakeTokens } from "./intake/IntakeTokens.ts"
import { DesktopReleases } from "./desktop/DesktopReleases.ts"
import { BlobsLive } from "./infra/BlobsLive.ts"
import { RateBudgetLive } from "./infra/RateBudget.ts"
import { AppConfig, type AppConfigValues } from "./Config.ts"
import { layerOwner } from "./infra/Database.ts"
import { runMigrations } from "./infra/Migrations.ts"
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
  // natural-language commands act through the other services, so they sit on top
  Commands.layer.pipe(
    Layer.provideMerge(
      Layer.mergeAll(
        hasher === undefined ? Accounts.layer : Accounts.layerWith(hasher),
        Credentials.layer,
        Workspaces.layer,
        Columns.layer,
        Labels.layer,
        Subtasks.layer,
        Boards.layer,
        Search.layer,
        Prompts.layer,
        IntakeTokens.layer,
        Intake.layer,
        RateBudgetLive,
        DesktopReleases.layer.pipe(Layer.provideMerge(BlobsLive))
      ).pipe(
        Layer.provideMerge(Layer.mergeAll(ProjectLinks.layer, Cards.layer, CardLinks.layer)),
        Layer.provideMerge(Layer.mergeAll(Access.layer, OAuth.layer)),
        Layer.provideMerge(CredentialCache.layer)
      )
    )
  )

/** Everything the front ends need, for one configuration. */
export const coreLayer = (config: AppConfigValues, options: { readonly hasher?: PasswordHasher } = {}) => {
  const base = Layer.mergeAll(
    Layer.succeed(AppConfig, config),
    Layer.succeed(ServerSecret, deriveKeys(resolveSecret(config.secret, config.dataDir)))
  )
  const database = MigrationsLive.pipe(Layer.provideMerge(layerOwner(config)))
  return ServicesLive(options.hasher).pipe(Layer.provideMerge(database), Layer.provideMerge(base))
}

/** Every service the core provides: what front ends and extra routes may require. */
export type CoreServices = ReturnType<typeof coreLayer> extends Layer.Layer<infer A, infer _E, infer _R> ? A : never
