/**
 * Which scope each MCP tool needs (issue 33), as the access rule names them: a credential sees
 * (tools/list) and calls only the tools its scopes cover, so a `read` key or an `mcp:read`
 * grant is offered the reading tools alone. Typed by the toolkit's names: a new tool does not
 * compile until it says its scope here. The core still checks every operation a tool runs
 * (run_command's commands each by their own scope); this only keeps out of the list what
 * would be refused.
 */
import { type ApiKeyScope, hasScope } from "@board/core"
import { Effect } from "effect"
import { McpServer } from "effect/ai"
import { McpPrincipal } from "./McpAuth.ts"
import type { BoardTools } from "./tools.ts"

export const TOOL_SCOPE: { readonly [K in keyof BoardTools]: ApiKeyScope } = {
  list_workspaces: "read",
  list_projects: "read",
  show_board: "read",
  search_cards: "read",
  show_card: "read",
  list_links: "read",
  get_prompt: "read",
  list_events: "read",
  card_history: "read",
  create_card: "write",
  update_card: "write",
  move_card: "write",
  archive_card: "write",
  restore_card: "write",
  add_label: "write",
  // takes something off a card: DELETE /v1/cards/{id}/labels/{labelId}
  remove_label: "delete",
  add_subtask: "write",
  toggle_subtask: "write",
  link_cards: "write",
  submit_link: "write",
  comment: "write",
  run_command: "write",
  claim_card: "write",
  claim_next_card: "write",
  heartbeat: "write",
  report: "write",
  release_card: "write"
}

/** The scope a registration needs: its tool's, `read` for prompts (and anything else listed). */
const scopeOf = (method: string, target: string): ApiKeyScope =>
  method.startsWith("tools/") ? ((TOOL_SCOPE as Record<string, ApiKeyScope>)[target] ?? "write") : "read"

/** Hides (and refuses, as unknown) what the request's credential may not use. */
export const ScopeVisibility = McpServer.visibility(
  (options) =>
    Effect.gen(function* () {
      const principal = yield* McpPrincipal
      return hasScope(principal, scopeOf(options.method, options.target))
    }),
  { global: true }
)
