/**
 * What the runner must never echo: the credential it hands to the command, and any value of the
 * command's environment whose name says it is a secret (…KEY, …TOKEN, …SECRET, …PASSWORD).
 */
const secretName = /(KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIAL)/i

/** The secret values of an environment (long enough not to blank out ordinary words). */
export const secretValues = (env: NodeJS.ProcessEnv, always: ReadonlyArray<string | undefined>): Array<string> => {
  const found = new Set<string>()
  for (const v of always) if (v !== undefined && v.length >= 4) found.add(v)
  for (const [name, v] of Object.entries(env))
    if (v !== undefined && v.length >= 8 && secretName.test(name)) found.add(v)
  // longest first, so a secret that contains another is replaced whole
  return [...found].sort((a, b) => b.length - a.length)
}

export const redactor =
  (secrets: ReadonlyArray<string>) =>
  (text: string): string => {
    let out = text
    for (const s of secrets) if (out.includes(s)) out = out.split(s).join("[redacted]")
    return out
  }
