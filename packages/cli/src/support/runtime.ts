/** Exit codes and the error that carries one to `main`: shared by every command, and light. */
export const exitCodes = { ok: 0, error: 1, usage: 2, auth: 4 } as const

export class CliExit extends Error {
  readonly code: number
  constructor(code: number, message: string) {
    super(message)
    this.code = code
  }
}
