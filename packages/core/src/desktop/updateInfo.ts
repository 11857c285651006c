/**
 * `latest-mac.yml` in electron-builder's UpdateInfo format (builder-util-runtime
 * `updateInfo.ts`): `version`, `files[]` of `{url, sha512, size}` with URLs relative to the
 * feed base (`<version>/<artifact>`), the deprecated top-level `path` and `sha512` of the zip
 * Squirrel.Mac installs, and `releaseDate`. Strings are written as JSON strings, which YAML
 * reads as double-quoted scalars, so no value can change the document's structure.
 */
import { extensionOf } from "./releaseRules.ts"

export interface FeedFile {
  readonly name: string
  readonly sha512: string
  readonly size: number
}

// JSON leaves C1 controls, line/paragraph separators and BOM raw; YAML wants them escaped
const str = (s: string) =>
  JSON.stringify(s).replace(
    /[\u007f-\u009f\u2028\u2029\ufeff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`
  )

/** Requires at least one `.zip` (checked by the publisher); blockmaps are fetched beside their file, not listed. */
export const renderUpdateInfo = (input: {
  readonly version: string
  readonly files: ReadonlyArray<FeedFile>
  readonly releaseDate: string
  readonly releaseNotes: string
}): string => {
  const listed = [
    ...input.files.filter((f) => extensionOf(f.name) === ".zip"),
    ...input.files.filter((f) => extensionOf(f.name) === ".dmg")
  ]
  const zip = listed[0]!
  const url = (f: FeedFile) => `${input.version}/${f.name}`
  const lines = [
    `version: ${str(input.version)}`,
    "files:",
    ...listed.flatMap((f) => [`  - url: ${str(url(f))}`, `    sha512: ${str(f.sha512)}`, `    size: ${f.size}`]),
    `path: ${str(url(zip))}`,
    `sha512: ${str(zip.sha512)}`,
    `releaseDate: ${str(input.releaseDate)}`,
    `releaseNotes: ${str(input.releaseNotes)}`
  ]
  return `${lines.join("\n")}\n`
}
