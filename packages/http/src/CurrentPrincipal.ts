import type { Principal } from "@board/core"
import { Context } from "effect"

/** The caller, as resolved by the authentication middleware for this request. */
export class CurrentPrincipal extends Context.Service<CurrentPrincipal, Principal>()("board/http/CurrentPrincipal") {}
