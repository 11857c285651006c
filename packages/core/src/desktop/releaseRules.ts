/**
 * The shapes a desktop release may take: SPEC.md's bare three-part version, platform names,
 * artifact file names, and which update-feed paths resolve (SPEC "Desktop builds" rule 4).
 * Pure, so the path table is tested without a server.
 */

/** SPEC rule 1: three dot-separated non-negative integers, bare (no `v`, no spaces, no fourth part). */
const VERSION = /^(?:0|[1-9]\d{0,8})\.(?:0|[1-9]\d{0,8})\.(?:0|[1-9]\d{0,8})$/

export const isVersion = (text: string): boolean => VERSION.test(text)

export const PLATFORM = /^[a-z0-9_-]{1,64}$/

export const isPlatform = (text: string): boolean => PLATFORM.test(text)

/** macOS platforms get electron-builder's `latest-mac.yml` feed. */
export const isDarwin = (platform: string): boolean => platform === "darwin" || platform.startsWith("darwin-")

export const DEFAULT_PLATFORM = "darwin-arm64"

export const CHANNEL_FILE = "latest-mac.yml"

/** Extensions the update feed serves (SPEC rule 4). */
export const FEED_EXTENSIONS = [".yml", ".zip", ".blockmap", ".dmg"] as const

/** Files a darwin release may carry: what electron-builder makes for macOS. */
export const DARWIN_EXTENSIONS = [".zip", ".dmg", ".blockmap"] as const

/**
 * One path segment of a stored file: letters, digits, `.`, `_`, `-` and inner spaces; never
 * starting with a dot (so `.`, `..` and hidden upload staging files are never names).
 */
const SEGMENT = /^[A-Za-z0-9_-](?:[A-Za-z0-9._ -]{0,198}[A-Za-z0-9._-])?$/

export const isArtifactName = (name: string): boolean => SEGMENT.test(name)

export const extensionOf = (name: string): string => {
  const dot = name.lastIndexOf(".")
  return dot <= 0 ? "" : name.slice(dot).toLowerCase()
}

/** A storage key: `/`-joined safe segments, at most three deep (`<platform>/<version>/<file>`). */
export const isBlobKey = (key: string): boolean => {
  const segments = key.split("/")
  return segments.length >= 1 && segments.length <= 3 && segments.every(isArtifactName)
}

/** Storage key of one release file. */
export const releaseKey = (platform: string, version: string, file: string): string => `${platform}/${version}/${file}`

/**
 * Decodes one raw (percent-encoded) path segment; `undefined` when it is malformed or decodes
 * to anything but a safe name (an encoded `/`, `\`, `%` or `..` never resolves).
 */
export const decodeSegment = (raw: string): string | undefined => {
  let decoded: string
  try {
    decoded = decodeURIComponent(raw)
  } catch {
    return undefined
  }
  return isArtifactName(decoded) ? decoded : undefined
}

export type FeedPath =
  | { readonly kind: "channel"; readonly platform: string }
  | { readonly kind: "artifact"; readonly platform: string; readonly version: string; readonly file: string }

/**
 * The update feed's subtree, from the raw request path below `/v1/desktop/updates/` (query
 * already removed): `<platform>/latest-mac.yml` or `<platform>/<version>/<artifact>` with a
 * feed extension. Anything else (deeper, other extensions, traversal, encoded separators) is
 * `undefined`, which the API answers with 404.
 */
export const parseFeedPath = (rawRest: string): FeedPath | undefined => {
  const raw = rawRest.split("/")
  if (raw.length < 2 || raw.length > 3) return undefined
  const segments: Array<string> = []
  for (const r of raw) {
    const s = decodeSegment(r)
    if (s === undefined) return undefined
    segments.push(s)
  }
  const platform = segments[0]!
  if (!isPlatform(platform)) return undefined
  if (segments.length === 2) return segments[1] === CHANNEL_FILE ? { kind: "channel", platform } : undefined
  const version = segments[1]!
  const file = segments[2]!
  if (!isVersion(version)) return undefined
  if (!(FEED_EXTENSIONS as ReadonlyArray<string>).includes(extensionOf(file))) return undefined
  return { kind: "artifact", platform, version, file }
}

export const contentTypeOf = (name: string): string => {
  switch (extensionOf(name)) {
    case ".zip":
      return "application/zip"
    case ".dmg":
      return "application/x-apple-diskimage"
    case ".yml":
    case ".yaml":
      return "text/yaml; charset=utf-8"
    case ".json":
      return "application/json"
    default:
      return "application/octet-stream"
  }
}
