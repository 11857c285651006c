import type { IntakeCredential, Principal } from "@board/core"
import { Context } from "effect"

/** The caller, as resolved by the authentication middleware for this request. */
export class CurrentPrincipal extends Context.Service<CurrentPrincipal, Principal>()("board/http/CurrentPrincipal") {}

/** The intake token of this request, as resolved by the intake middleware. */
export class CurrentIntake extends Context.Service<CurrentIntake, IntakeCredential>()("board/http/CurrentIntake") {}
