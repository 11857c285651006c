/**
 * What a scenario is: HTTP load on one of the processes under test, or PostgreSQL alone (pgbench
 * or its stand-in), with its id, label, connections and scaling-table row; and what the write
 * scenarios and the thin service's scenarios need to be built.
 */
import type { Drive, LoadSpec } from "./load.ts"
import type { Scale } from "./report.ts"
import type { MovePool, SeededAccount } from "./seed.ts"

interface ScenarioBase {
  readonly id: string
  readonly label: string
  readonly connections: number
  readonly supplementary?: boolean
  /** A row of a scaling table; `probe` is the request(s) whose response size is reported. */
  readonly scale?: Scale & { readonly probe: ReadonlyArray<string> }
}

/** HTTP load by autocannon on the baseline, the thin service, the board server on PostgreSQL, or the one on the embedded database. */
export interface HttpScenario extends ScenarioBase {
  readonly target: "baseline" | "framework" | "thin" | "server" | "embedded"
  readonly spec: Omit<LoadSpec, "origin" | "connections" | "durationSeconds">
}

/** PostgreSQL alone: pgbench (or its stand-in), no HTTP. */
export interface FloorScenario extends ScenarioBase {
  readonly target: "floor"
  readonly drive: Drive
}

export type Scenario = HttpScenario | FloorScenario

/** What the write scenarios need, seeded the same way on PostgreSQL and on the embedded database. */
export type WriteTargets = SeededAccount & MovePool & { readonly intakeToken: string }

/** What the thin service's scenarios need: its key, where creates go (the create scenario's project and column), and the rows to read. */
export interface ThinTarget {
  readonly apiKey: string
  readonly createProject: { readonly id: string; readonly columnId: string }
  readonly readIds: ReadonlyArray<string>
}
