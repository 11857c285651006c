import type { LinkType, Priority } from "../domain/enums.ts"

export type { LinkType, Priority }

/**
 * A card named in a command: by ref (`WEB-12`, upper-cased) when it looks like
 * one, otherwise by title, which the executor resolves on the board.
 */
export type CardRefOrTitle = { readonly ref: string } | { readonly title: string }

export type Intent =
  | {
      readonly type: "create_card"
      readonly title: string
      /** Column name as typed; matched case-insensitively by the executor. Absent: the executor's default. */
      readonly column?: string
      readonly priority?: Priority
      readonly labels: ReadonlyArray<string>
    }
  | {
      readonly type: "move_card"
      readonly card: CardRefOrTitle
      readonly column: string
      /** 0-based index in the target column (0 = top). Absent: the executor's default (end). */
      readonly position?: number
    }
  | { readonly type: "rename_card"; readonly card: CardRefOrTitle; readonly title: string }
  | { readonly type: "set_priority"; readonly card: CardRefOrTitle; readonly priority: Priority }
  /** An empty description clears it. */
  | { readonly type: "set_description"; readonly card: CardRefOrTitle; readonly description: string }
  | { readonly type: "add_label"; readonly card: CardRefOrTitle; readonly label: string }
  | { readonly type: "remove_label"; readonly card: CardRefOrTitle; readonly label: string }
  | { readonly type: "add_subtask"; readonly card: CardRefOrTitle; readonly title: string }
  | { readonly type: "complete_subtask"; readonly card: CardRefOrTitle; readonly subtask: string }
  | { readonly type: "reopen_subtask"; readonly card: CardRefOrTitle; readonly subtask: string }
  | {
      readonly type: "link_cards"
      /** The source of the link: for `blocks`, the card that blocks `target`. */
      readonly card: CardRefOrTitle
      readonly target: CardRefOrTitle
      readonly linkType: LinkType
    }
  | { readonly type: "delete_card"; readonly card: CardRefOrTitle }
  | { readonly type: "archive_card"; readonly card: CardRefOrTitle }
  | { readonly type: "restore_card"; readonly card: CardRefOrTitle }
  | { readonly type: "search"; readonly query: string }
  | { readonly type: "show_card"; readonly card: CardRefOrTitle }

export type IntentType = Intent["type"]

export type ParseResult =
  | { readonly ok: true; readonly intent: Intent }
  | { readonly ok: false; readonly error: string }
