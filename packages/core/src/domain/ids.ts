/**
 * Ids: UUID strings, branded per resource so a card id cannot be passed where a column id is
 * meant. The brand is a type only; it costs nothing at run time.
 *
 * An id comes in two forms. In a resource (a response) it is only annotated: the document states
 * `format: uuid`, and nothing is checked on the way out (the database made it). Where a client
 * sends one (a path, a query, a body) `checkedId` adds the UUID check and the message a client
 * sees, so the OpenAPI document states the pattern too.
 */
import { Schema } from "effect"

const uuidCheck = Schema.isUUID(undefined, { message: "expected a UUID" })

/** Any UUID a client sends, checked. */
export const Uuid = Schema.String.check(uuidCheck)

/** Any UUID in a response, unchecked (the document says `format: uuid`). */
export const Id = Schema.String.annotate({ format: "uuid" })

/**
 * The id as a client sends it: `Uuid` at run time (so the document states the UUID pattern as it
 * always has, without the response form's annotation), typed with the id's brand, which exists
 * only in types.
 */
export const checkedId = <B extends string>(_id: Schema.brand<typeof Id, B>): Schema.brand<typeof Uuid, B> =>
  Uuid as Schema.brand<typeof Uuid, B>

export const WorkspaceId = Id.pipe(Schema.brand("WorkspaceId"))
export type WorkspaceId = typeof WorkspaceId.Type
export const ProjectId = Id.pipe(Schema.brand("ProjectId"))
export type ProjectId = typeof ProjectId.Type
export const ColumnId = Id.pipe(Schema.brand("ColumnId"))
export type ColumnId = typeof ColumnId.Type
export const CardId = Id.pipe(Schema.brand("CardId"))
export type CardId = typeof CardId.Type
export const LabelId = Id.pipe(Schema.brand("LabelId"))
export type LabelId = typeof LabelId.Type
export const SubtaskId = Id.pipe(Schema.brand("SubtaskId"))
export type SubtaskId = typeof SubtaskId.Type
export const CardLinkId = Id.pipe(Schema.brand("CardLinkId"))
export type CardLinkId = typeof CardLinkId.Type
export const ProjectLinkId = Id.pipe(Schema.brand("ProjectLinkId"))
export type ProjectLinkId = typeof ProjectLinkId.Type
export const UserId = Id.pipe(Schema.brand("UserId"))
export type UserId = typeof UserId.Type
export const IntakeTokenId = Id.pipe(Schema.brand("IntakeTokenId"))
export type IntakeTokenId = typeof IntakeTokenId.Type
