/** Email and password from flags, stdin or the terminal, for signup and login. */
import { Effect } from "effect"
import { usageError } from "../../support/failure.ts"
import { ask, askSecret, readStdinLine, stdinIsTerminal } from "../../support/prompt.ts"

export const fromFlagOrPrompt = (value: string | undefined, flag: string, question: string) =>
  Effect.gen(function* () {
    if (value !== undefined) return value
    if (!stdinIsTerminal()) return yield* usageError(`${flag} is required when stdin is not a terminal`)
    const answer = yield* ask(question)
    if (answer === "") return yield* usageError(`${flag.replace(/^--/, "").replace(/-/g, " ")} must not be empty`)
    return answer
  })

/** --password-stdin, else --password, else a question whose answer is not echoed. */
export const password = (
  options: { password?: string | undefined; passwordStdin?: boolean | undefined },
  confirm: boolean
) =>
  Effect.gen(function* () {
    if (options.passwordStdin === true && options.password !== undefined) {
      return yield* usageError("use either --password or --password-stdin, not both")
    }
    if (options.passwordStdin === true) return yield* readStdinLine
    if (options.password !== undefined) return options.password
    if (!stdinIsTerminal())
      return yield* usageError("--password-stdin (or --password) is required when stdin is not a terminal")
    const first = yield* askSecret(confirm ? "Password (8 to 128 characters): " : "Password: ")
    if (!confirm) return first
    const again = yield* askSecret("Password again: ")
    if (again !== first) return yield* usageError("the passwords do not match")
    return first
  })
