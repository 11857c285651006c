/** Agent prompts built from a card, its links and the project's high-relevance references. */
import { Context, Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import type { NotFound, WorkspaceNotGranted } from "../domain/errors.ts"
import type { CardId } from "../domain/ids.ts"
import type { Principal } from "../domain/Principal.ts"
import { CardLinks } from "../board/CardLinks.ts"
import { Cards } from "../board/Cards.ts"
import { Comments } from "../board/Comments.ts"
import { ProjectLinks } from "../links/ProjectLinks.ts"
import { buildPrompt } from "./buildPrompt.ts"
import type { PromptVariant } from "./types.ts"

/** The latest comments a prompt quotes. */
const PROMPT_COMMENTS = 10

export class Prompts extends Context.Service<
  Prompts,
  {
    readonly forCard: (
      principal: Principal,
      cardId: CardId,
      variant: PromptVariant
    ) => Effect.Effect<{ prompt: string; variant: PromptVariant }, NotFound | WorkspaceNotGranted>
  }
>()("board/core/Prompts") {
  static readonly layer = Layer.effect(
    Prompts,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const cards = yield* Cards
      const cardLinks = yield* CardLinks
      const projectLinks = yield* ProjectLinks
      const comments = yield* Comments

      const forCard = Effect.fn("Prompts.forCard")(function* (
        principal: Principal,
        cardId: CardId,
        variant: PromptVariant
      ) {
        const card = yield* cards.get(principal, cardId)
        const [links, references, [project], latest] = yield* Effect.all([
          cardLinks.list(principal, cardId),
          projectLinks.references(card.projectId),
          sql<{ name: string }>`SELECT name FROM projects WHERE id = ${card.projectId}`.pipe(Effect.orDie),
          comments.latest(card.id, PROMPT_COMMENTS)
        ])
        const prompt = buildPrompt(
          {
            card: {
              ref: card.ref,
              title: card.title,
              description: card.description,
              priority: card.priority,
              labels: card.labels.map((l) => l.name),
              subtasks: card.subtasks.map((s) => ({ title: s.title, completed: s.completed }))
            },
            project: { name: project?.name ?? "" },
            links: links.map((l) => ({
              direction: l.direction,
              linkType: l.linkType,
              ref: l.card.ref,
              title: l.card.title
            })),
            references: references.map((r) => ({ url: r.url, title: r.title, note: r.note })),
            comments: {
              latest: latest.comments.map((c) => ({
                // an agent is quoted as one: a client named "alice" is not the person alice
                author:
                  c.author.type === "agent"
                    ? `${c.author.name ?? "an agent"} (agent)`
                    : (c.author.name ?? c.author.type),
                createdAt: c.createdAt,
                body: c.body
              })),
              total: latest.total
            }
          },
          variant
        )
        return { prompt, variant }
      })

      return Prompts.of({ forCard })
    })
  )
}
