/**
 * The user's config file, `$XDG_CONFIG_HOME/board/config.json` (else `~/.config/board/config.json`):
 * the API URL and key saved by `board auth signup|login`. It holds a secret, so it is written
 * with mode 0600 (and its directory 0700), atomically, whatever the umask.
 */
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"

export interface ConfigFile {
  readonly apiUrl?: string
  readonly apiKey?: string
  /** The account the key belongs to, for `board auth status` (the API has no "who am I"). */
  readonly email?: string
  /** The project commands use when none is named (the one signup created). */
  readonly project?: string
}

export const configPath = (env: NodeJS.ProcessEnv): string => {
  const xdg = env.XDG_CONFIG_HOME
  // the XDG spec says a relative value is invalid and must be ignored
  const base = xdg !== undefined && path.isAbsolute(xdg) ? xdg : path.join(env.HOME ?? os.homedir(), ".config")
  return path.join(base, "board", "config.json")
}

const pick = (value: unknown, key: string): string | undefined => {
  const v = (value as Record<string, unknown>)[key]
  return typeof v === "string" && v !== "" ? v : undefined
}

export class ConfigUnreadable extends Error {}

/** The saved settings; an absent file is an empty config, an unreadable one an error naming it. */
export const readConfig = (file: string): ConfigFile => {
  let text: string
  try {
    text = fs.readFileSync(file, "utf8")
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return {}
    throw new ConfigUnreadable(`cannot read ${file}: ${(e as Error).message}`)
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    throw new ConfigUnreadable(`${file} is not valid JSON; fix it or delete it and sign in again (board auth login)`)
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new ConfigUnreadable(
      `${file} must hold a JSON object; fix it or delete it and sign in again (board auth login)`
    )
  }
  const out: { -readonly [K in keyof ConfigFile]: ConfigFile[K] } = {}
  for (const key of ["apiUrl", "apiKey", "email", "project"] as const) {
    const v = pick(parsed, key)
    if (v !== undefined) out[key] = v
  }
  return out
}

/** Replaces the file's content: written to a private temporary file, then renamed over it. */
export const writeConfig = (file: string, config: ConfigFile): void => {
  const dir = path.dirname(file)
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 })
  const tmp = path.join(dir, `.config.json.${process.pid}.tmp`)
  try {
    fs.writeFileSync(tmp, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 })
    fs.chmodSync(tmp, 0o600) // the umask may have narrowed it further, never widened: make it exact
    fs.renameSync(tmp, file)
  } finally {
    fs.rmSync(tmp, { force: true })
  }
}

/** Removes the file; nothing to remove is fine. */
export const removeConfig = (file: string): void => fs.rmSync(file, { force: true })
