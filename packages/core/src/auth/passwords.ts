/**
 * Password hashing with scrypt at OWASP's floor (N=2^17, r=8, p=1), stored as a PHC-style
 * string so parameters can rise later. Each hash takes about 128 MiB, so at most two run at
 * once (two cores); callers queue behind a semaphore rather than exhausting memory.
 */
import { Effect, Semaphore } from "effect"
import * as crypto from "node:crypto"

export interface ScryptParams {
  readonly logN: number
  readonly r: number
  readonly p: number
}

export const OWASP_SCRYPT: ScryptParams = { logN: 17, r: 8, p: 1 }
const KEY_LENGTH = 32

const scrypt = (password: string, salt: Buffer, params: ScryptParams) =>
  Effect.callback<Buffer, Error>((resume) => {
    const N = 2 ** params.logN
    crypto.scrypt(
      password.normalize("NFC"),
      salt,
      KEY_LENGTH,
      { N, r: params.r, p: params.p, maxmem: 256 * N * params.r },
      (err, key) => resume(err ? Effect.fail(err) : Effect.succeed(key))
    )
  }).pipe(Effect.orDie)

export interface PasswordHasher {
  readonly hash: (password: string) => Effect.Effect<string>
  readonly verify: (password: string, stored: string) => Effect.Effect<boolean>
  /** Spends the same time as a real verify, so unknown emails are not revealed by timing. */
  readonly verifyDummy: (password: string) => Effect.Effect<false>
}

export const makePasswordHasher = (params: ScryptParams = OWASP_SCRYPT, concurrency = 2): PasswordHasher => {
  const permits = Semaphore.makeUnsafe(concurrency)
  const hash = (password: string) =>
    permits.withPermits(1)(
      Effect.gen(function* () {
        const salt = crypto.randomBytes(16)
        const key = yield* scrypt(password, salt, params)
        return `$scrypt$ln=${params.logN},r=${params.r},p=${params.p}$${salt.toString("base64")}$${key.toString("base64")}`
      })
    )
  const verify = (password: string, stored: string) =>
    permits.withPermits(1)(
      Effect.gen(function* () {
        const m = /^\$scrypt\$ln=(\d+),r=(\d+),p=(\d+)\$([^$]+)\$([^$]+)$/.exec(stored)
        if (!m) return false
        const expected = Buffer.from(m[5]!, "base64")
        const key = yield* scrypt(password, Buffer.from(m[4]!, "base64"), {
          logN: Number(m[1]),
          r: Number(m[2]),
          p: Number(m[3])
        })
        return key.length === expected.length && crypto.timingSafeEqual(key, expected)
      })
    )
  let dummy: string | undefined
  const verifyDummy = (password: string) =>
    Effect.gen(function* () {
      dummy ??= yield* hash("dummy password for timing")
      yield* verify(password, dummy)
      return false as const
    })
  return { hash, verify, verifyDummy }
}

/** Password length in code points, as SPEC.md counts it (no truncation, no byte counting). */
export const passwordLength = (password: string): number => [...password].length
