/**
 * What ids and card refs look like: the one definition the core's lookups, the HTTP contract
 * (through `@board/core/contract`) and the CLI share. Pure, with no services.
 */

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
