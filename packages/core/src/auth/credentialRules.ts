/**
 * What signup refuses beyond length and shape (issue 28):
 * - a commonly used password: the ~49,000 passwords of zxcvbn-ts's common list
 *   (@zxcvbn-ts/language-common, compiled from leaked-password corpora, ranked by frequency),
 *   compared case-insensitively, so `Password1` goes with `password1`. Those are the guesses an
 *   attacker tries first, whatever the per-account limit lets through;
 * - an email with a character a person cannot see or that is not text: controls (Cc), format
 *   characters such as the zero-width space and the bidi overrides (Cf), line and paragraph
 *   separators, any space (ASCII ones are refused by the shape check), surrogates, private-use
 *   and unassigned code points, whatever Unicode marks default-ignorable (the Hangul fillers,
 *   variation selectors, the combining grapheme joiner…) and the blank braille pattern. Otherwise `ada\u200b@example.com` signs up as a second account that
 *   reads exactly like `ada@example.com` on a member list.
 */
import { Effect } from "effect"

const INVISIBLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}\p{Zs}\p{Default_Ignorable_Code_Point}\u2800]/u

/** Why an email may not be an account's name for its characters, or undefined. */
export const emailCharacterProblem = (email: string): string | undefined => {
  const found = INVISIBLE.exec(email)
  if (found === null) return undefined
  const code = found[0].codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")
  return `email: must not contain invisible, space or control characters (found U+${code}); type the address again by hand`
}

let common: Promise<ReadonlySet<string>> | undefined
/** The list, decompressed on first use (about 50 ms once) rather than at every start. */
const commonPasswords = (): Promise<ReadonlySet<string>> => {
  common ??= import("@zxcvbn-ts/language-common").then((m) => {
    // the bundle (esbuild) loads the package's CommonJS build, whose exports sit under `default`
    const dictionary = (m.dictionary ?? (m as unknown as { default: typeof m }).default.dictionary) as Record<
      string,
      ReadonlyArray<string>
    >
    return new Set(dictionary["passwords-common"]!.map((p) => p.toLowerCase()))
  })
  return common
}

/** Whether `password` is on the common-password list (case-insensitive, NFC as it is hashed). */
export const isCommonPassword = (password: string): Effect.Effect<boolean> =>
  Effect.map(
    Effect.promise(commonPasswords),
    (list) =>
      list.has(password.normalize("NFC").toLowerCase()) || list.has(password.normalize("NFC").trim().toLowerCase())
  )

export const COMMON_PASSWORD_MESSAGE =
  "password: this is one of the most commonly used passwords, which attackers try first; choose another (a few unrelated words make a strong one)"
