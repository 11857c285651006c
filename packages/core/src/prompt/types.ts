import { type LinkType, type Priority, type PromptVariant, promptVariants } from "../domain/enums.ts"

export type { PromptVariant }

export const PROMPT_VARIANTS: ReadonlyArray<PromptVariant> = promptVariants

export type { Priority }

export type CardLinkType = LinkType

export interface PromptSubtask {
  readonly title: string
  readonly completed: boolean
}

export interface PromptCardLink {
  /** `outgoing`: this card is the source (this card blocks the other); `incoming`: the other is. */
  readonly direction: "outgoing" | "incoming"
  readonly linkType: CardLinkType
  readonly ref: string
  readonly title: string
}

export interface PromptReference {
  readonly url: string
  readonly title: string | null
  readonly note: string | null
}

export interface PromptComment {
  /** The author's name (a person's full name, an agent's client name), or their kind. */
  readonly author: string
  readonly createdAt: string
  readonly body: string
}

export interface PromptInput {
  readonly card: {
    readonly ref: string
    readonly title: string
    readonly description: string | null
    readonly priority: Priority
    readonly labels: ReadonlyArray<string>
    readonly subtasks: ReadonlyArray<PromptSubtask>
  }
  readonly project: { readonly name: string }
  readonly links: ReadonlyArray<PromptCardLink>
  /** The project's links rated `high`, in the order they should be listed. */
  readonly references: ReadonlyArray<PromptReference>
  /** The card's latest comments, oldest first, and how many it has in all. */
  readonly comments?: { readonly latest: ReadonlyArray<PromptComment>; readonly total: number } | undefined
}
