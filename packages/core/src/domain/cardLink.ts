/** A typed link between two cards of one workspace, as seen from one of them. */
import { Schema } from "effect"
import { LinkType } from "./enums.ts"
import { CardId, CardLinkId } from "./ids.ts"
import { Timestamp } from "./text.ts"

export const CardLink = Schema.Struct({
  id: CardLinkId,
  sourceId: CardId,
  targetId: CardId,
  linkType: LinkType,
  /** Seen from the card it was listed for: `outgoing` when that card is the source. */
  direction: Schema.Literals(["outgoing", "incoming"]),
  /** The card at the other end. */
  card: Schema.Struct({ id: CardId, ref: Schema.String, title: Schema.String }),
  createdAt: Timestamp,
  updatedAt: Timestamp
}).annotate({
  identifier: "CardLink",
  description: "A typed link between two cards of one workspace, seen from the card it was listed for."
})
export type CardLink = typeof CardLink.Type
