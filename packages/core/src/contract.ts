/**
 * `@board/core/contract`: the vocabulary the HTTP contract and its clients share with the core
 * (the resources' schemas, ids, enums, limits and text rules, what card refs look like, project
 * templates), with no services and no database. The
 * API description (`@board/http/Api`) imports this rather than the whole core, so the CLI's
 * client commands never load the core's services or the database driver.
 */
export * from "./domain/agent.ts"
export * from "./domain/agentSession.ts"
export * from "./domain/board.ts"
export * from "./domain/card.ts"
export * from "./domain/cardLink.ts"
export * from "./domain/command.ts"
export * from "./domain/comment.ts"
export * from "./domain/enums.ts"
export * from "./domain/event.ts"
export * from "./domain/forge.ts"
export * from "./domain/ids.ts"
export * from "./domain/inputs.ts"
export * from "./domain/invitation.ts"
export * from "./domain/keyLimits.ts"
export * from "./domain/limits.ts"
export * from "./domain/projectLink.ts"
export * from "./domain/text.ts"
export * from "./domain/webhook.ts"
export * from "./domain/workspace.ts"
// how typed names compare and how messages list them: the same for the server and the CLI
export { listOf, normalizeName, quote } from "./board/names.ts"
export { projectTemplates } from "./domain/projectTemplates.ts"
// The plain-English command grammar: pure and offline, the same function the server executes
// with, so a client can tell a destructive command (delete_card) before it sends it.
export { type CardRefOrTitle, parseCommand, type ParseResult } from "./nlu/parseCommand.ts"
