/**
 * The limits a new key takes on the command line (issue 33), shared by `board key create` and
 * `board agent key create`: `--scope read,write` (repeatable), `--project NAME` (repeatable; a
 * name, ref prefix or id, through the one project lookup), `--expires 30d` (days, hours, or an
 * ISO 8601 date).
 */
import type { ProjectId } from "@board/core/contract"
import { Effect } from "effect"
import { usageError } from "./failure.ts"
import { Lookup } from "./lookup.ts"

export interface KeyLimitFlags {
  readonly scope?: ReadonlyArray<string>
  readonly project?: ReadonlyArray<string>
  readonly expires?: string
}

type Scope = "read" | "write" | "delete" | "admin"

export const collectList = (value: string, previous: ReadonlyArray<string> | undefined) => [
  ...(previous ?? []),
  ...value
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s !== "")
]

/** `30d`, `12h` or an ISO 8601 date, as the instant it names (from `now`). */
export const expiryOf = (spec: string, now: number): string | undefined => {
  const relative = /^(\d+)\s*(d|h)$/i.exec(spec.trim())
  if (relative !== null) {
    const n = Number(relative[1])
    return n > 0
      ? new Date(now + n * (relative[2]!.toLowerCase() === "d" ? 86_400_000 : 3_600_000)).toISOString()
      : undefined
  }
  const at = Date.parse(spec)
  return Number.isFinite(at) && /^\d{4}-\d{2}-\d{2}/.test(spec.trim()) ? new Date(at).toISOString() : undefined
}

/** The payload's `scopes`, `projectIds` and `expiresAt` of the flags given. */
export const keyLimitsPayload = (flags: KeyLimitFlags) =>
  Effect.gen(function* () {
    const lookup = yield* Lookup
    const projectIds: Array<ProjectId> = []
    for (const spec of flags.project ?? []) projectIds.push((yield* lookup.project(spec)).id as ProjectId)
    let expiresAt: string | undefined
    if (flags.expires !== undefined) {
      expiresAt = expiryOf(flags.expires, Date.now())
      if (expiresAt === undefined)
        return yield* usageError(`--expires ${flags.expires}: give days (30d), hours (12h) or a date (2026-12-31)`)
    }
    return {
      ...(flags.scope !== undefined ? { scopes: flags.scope as Array<Scope> } : {}),
      ...(projectIds.length > 0 ? { projectIds } : {}),
      ...(expiresAt !== undefined ? { expiresAt } : {})
    }
  })

/** How a key's limits read in a message or a table cell. */
export const describeLimits = (
  k: { scopes: ReadonlyArray<string>; projectIds: ReadonlyArray<string> | null; expiresAt: string | null },
  projectName: (id: string) => string = (id) => id
) =>
  [
    `scopes ${k.scopes.join(", ")}`,
    k.projectIds === null
      ? "every project"
      : `project${k.projectIds.length === 1 ? "" : "s"} ${k.projectIds.map(projectName).join(", ")}`,
    k.expiresAt === null ? "never expires" : `expires ${k.expiresAt}`
  ].join("; ")

/** The commander options of the limits. */
export const keyLimitOptions = [
  ["--scope <scopes>", "read, write, delete or admin; repeat or separate with commas (default: all)", collectList],
  [
    "--project <project>",
    "limit the key to this project (name, ref prefix or id); repeatable (default: every project)",
    collectList
  ],
  ["--expires <when>", "when the key stops working: days (30d), hours (12h) or a date (default: never)"]
] as const
