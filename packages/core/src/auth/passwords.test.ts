import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { makePasswordHasher, OWASP_SCRYPT, passwordLength } from "./passwords.ts"

describe("passwords", () => {
  it("hashes at OWASP's scrypt floor and verifies", async () => {
    const hasher = makePasswordHasher()
    const stored = await Effect.runPromise(hasher.hash("correct horse battery"))
    expect(stored).toMatch(new RegExp(`^\\$scrypt\\$ln=${OWASP_SCRYPT.logN},r=8,p=1\\$`))
    expect(OWASP_SCRYPT.logN).toBeGreaterThanOrEqual(17)
    expect(await Effect.runPromise(hasher.verify("correct horse battery", stored))).toBe(true)
    expect(await Effect.runPromise(hasher.verify("correct horse batterY", stored))).toBe(false)
    expect(await Effect.runPromise(hasher.verify("x", "not a hash"))).toBe(false)
  })

  it("never truncates: two 100-character passwords differing at character 90 differ", async () => {
    const hasher = makePasswordHasher({ logN: 10, r: 8, p: 1 })
    const a = "a".repeat(100)
    const b = `${"a".repeat(89)}b${"a".repeat(10)}`
    const stored = await Effect.runPromise(hasher.hash(a))
    expect(await Effect.runPromise(hasher.verify(b, stored))).toBe(false)
  })

  it("bounds concurrent hashes: 12 parallel production hashes all succeed", async () => {
    const hasher = makePasswordHasher()
    const results = await Effect.runPromise(
      Effect.all(
        Array.from({ length: 12 }, (_, i) => hasher.hash(`password ${i}`)),
        { concurrency: "unbounded" }
      )
    )
    expect(new Set(results).size).toBe(12)
  })

  it("counts code points", () => {
    expect(passwordLength("😀😀")).toBe(2)
    expect(passwordLength("abc")).toBe(3)
  })
})
