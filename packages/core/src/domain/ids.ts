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
export const CommentId = Id.pipe(Schema.brand("CommentId"))
export type CommentId = typeof CommentId.Type
export const IntakeTokenId = Id.pipe(Schema.brand("IntakeTokenId"))
export type IntakeTokenId = typeof IntakeTokenId.Type
export const InvitationId = Id.pipe(Schema.brand("InvitationId"))
export type InvitationId = typeof InvitationId.Type

// What ids and card refs look like as text, for code that reads a string a person or an agent
// typed (the resolver, the CLI) and for the one path that takes either (GET /v1/cards/{id}).
const UUID_SHAPE = "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"
const REF_SHAPE = "([A-Za-z][A-Za-z0-9]*)-([0-9]+)"

const UUID = new RegExp(`^${UUID_SHAPE}$`)

/** Callers beyond HTTP (MCP tools, commands) may pass any string: not a uuid is simply not found. */
export const isUuid = (id: string): boolean => UUID.test(id)

/** A card ref: project prefix, dash, number (`WEB-12`); refs compare case-insensitively. */
export const CARD_REF = new RegExp(`^${REF_SHAPE}$`)

/**
 * A card named by its id or its ref, as `GET /v1/cards/{id}` takes it. Unicode mode: Effect
 * puts only such patterns into the OpenAPI document.
 */
export const CARD_ID_OR_REF = new RegExp(`^(?:${UUID_SHAPE}|${REF_SHAPE})$`, "u")

/** The number of a ref (`WEB-12` → 12) when it fits a database integer, else undefined. */
export const refNumber = (ref: string): number | undefined => {
  const m = CARD_REF.exec(ref)
  if (m === null) return undefined
  const n = Number(m[2])
  return Number.isSafeInteger(n) && n <= 2_147_483_647 ? n : undefined
}

/** An assignee filter (`?assignee=`): `me` (the caller) or a user id. */
export const AssigneeFilter = Schema.String.check(
  Schema.isPattern(new RegExp(`^(?:me|${UUID_SHAPE})$`, "u"), { message: 'expected "me" or a user id (a UUID)' })
).annotate({ description: "`me` (the caller) or a user id" })
