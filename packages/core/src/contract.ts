/**
 * `@board/core/contract`: the vocabulary the HTTP contract and its clients share with the core
 * (limits, priorities, link types, project templates, what ids and card refs look like), with no services and no database. The
 * API description (`@board/http/Api`) imports this rather than the whole core, so the CLI's
 * client commands never load the core's services or the database driver.
 */
export * from "./domain/limits.ts"
export { projectTemplates } from "./domain/projectTemplates.ts"
export { CARD_ID_OR_REF, CARD_REF, isUuid, refNumber } from "./board/ids.ts"
