/**
 * The performance targets the report judges: what each asks (a ratio, a latency, a start-up or
 * memory figure) and the list of them, the latest issue's first. bench/targets-table.ts judges them.
 */

export type Target =
  | { readonly kind: "ratio"; readonly label: string; readonly rowId: string; readonly min: number }
  /** requests/s of `rowId` at least `min` × those of `ofRowId` (a floor or another scenario). */
  | {
      readonly kind: "relative"
      readonly label: string
      readonly rowId: string
      readonly ofRowId: string
      readonly min: number
    }
  /** requests/s of `rowId` at least `min` × those of the same requests on 1 connection. */
  | {
      readonly kind: "scale-up"
      readonly label: string
      readonly rowId: string
      readonly oneConnectionRowId: string
      readonly min: number
    }
  | {
      readonly kind: "p99"
      readonly label: string
      readonly rowId: string
      readonly maxMs: number
      readonly oneConnectionRowId: string
    }
  /** p99 of a 1-connection row at most `maxMs`: the latency of one request without queueing. */
  | { readonly kind: "p99-alone"; readonly label: string; readonly rowId: string; readonly maxMs: number }
  /** A figure measured outside the load scenarios (start-up times, memory) at most `max`. */
  | {
      readonly kind: "figure"
      readonly label: string
      readonly figure: FigureId
      readonly max: number
      readonly unit: "ms" | "MiB"
      /** How the figure is taken, when not a median of start-up runs. */
      readonly note?: string
    }

/**
 * Start-up and memory figures, measured by bench/startup.ts and around the scenarios: start-up
 * times and the PostgreSQL server's idle RSS are medians of fresh processes; the peaks are VmHWM
 * (the highest RSS over the process's life) of the server under test; the embedded server's idle
 * RSS is read once, 2 s after it answered its first health check.
 */
export type FigureId =
  | "serveMs"
  | "idleRssMiB"
  | "finalRssMiB"
  | "peakRssMiB"
  | "embeddedIdleRssMiB"
  | "embeddedPeakRssMiB"
  | "helpMs"
  | "cardShowMs"
export type Figures = Partial<Record<FigureId, number>>

const peakNote =
  "VmHWM of the server under test (its highest RSS since it started, seeding included), read before it stops; see Start-up and memory below"

/** The targets of the performance issues: "Speed and memory against the thinnest hand-written service" first, then earlier ones. */
export const targets: ReadonlyArray<Target> = [
  {
    kind: "relative",
    label: "POST /v1/cards >= 0.35 of the thin create",
    rowId: "create",
    ofRowId: "thin-create",
    min: 0.35
  },
  { kind: "relative", label: "move >= 0.35 of the thin create", rowId: "move", ofRowId: "thin-create", min: 0.35 },
  {
    kind: "relative",
    label: "POST /v1/intake >= 0.35 of the thin create",
    rowId: "intake",
    ofRowId: "thin-create",
    min: 0.35
  },
  {
    kind: "relative",
    label: "GET /v1/cards/{id} >= 0.6 of the thin read",
    rowId: "card",
    ofRowId: "thin-read",
    min: 0.6
  },
  { kind: "ratio", label: "health >= 0.7 of baseline (node:http) req/s", rowId: "health", min: 0.7 },
  { kind: "p99-alone", label: "board of 1,000 cards p99 <= 12 ms, 1 connection", rowId: "board-1", maxMs: 12 },
  {
    kind: "p99-alone",
    label: "board of 10,000 cards p99 <= 80 ms, 1 connection",
    rowId: "board-10000-cards",
    maxMs: 80
  },
  {
    kind: "figure",
    label: "server RSS <= 250 MiB at its highest across the whole benchmark (PostgreSQL)",
    figure: "peakRssMiB",
    max: 250,
    unit: "MiB",
    note: peakNote
  },
  {
    kind: "figure",
    label: "server RSS <= 250 MiB at its highest across the whole benchmark (embedded database)",
    figure: "embeddedPeakRssMiB",
    max: 250,
    unit: "MiB",
    note: peakNote
  },
  {
    kind: "figure",
    label: "server RSS <= 120 MiB idle after start (PostgreSQL)",
    figure: "idleRssMiB",
    max: 120,
    unit: "MiB"
  },
  {
    kind: "figure",
    label: "server RSS <= 120 MiB idle after start (embedded database)",
    figure: "embeddedIdleRssMiB",
    max: 120,
    unit: "MiB",
    note: "the embedded database's benchmark server 2 s after its first health check, before seeding; one reading"
  },
  {
    kind: "relative",
    label: "claim-next over a 10,000-card backlog >= 0.5 of POST /v1/cards",
    rowId: "claim-next",
    ofRowId: "create",
    min: 0.5
  },
  {
    kind: "p99-alone",
    label: "search over 1,000,000 cards p99 <= 15 ms, 1 connection",
    rowId: "search-1m-cards",
    maxMs: 15
  },
  {
    kind: "figure",
    label: "`board serve` to healthy <= 1 s (up-to-date PostgreSQL database)",
    figure: "serveMs",
    max: 1000,
    unit: "ms"
  },
  { kind: "figure", label: "`board --help` <= 150 ms", figure: "helpMs", max: 150, unit: "ms" },
  {
    kind: "figure",
    label: "`board card show REF` <= 300 ms against a local server",
    figure: "cardShowMs",
    max: 300,
    unit: "ms"
  },
  { kind: "ratio", label: "authenticated GET /v1/cards/{id} >= 0.30 of baseline req/s", rowId: "card", min: 0.3 },
  {
    kind: "p99",
    label: "search over 100,000 cards p99 < 25 ms",
    rowId: "search",
    maxMs: 25,
    oneConnectionRowId: "search-1"
  },
  { kind: "p99", label: "board of 1000 cards p99 < 60 ms", rowId: "board", maxMs: 60, oneConnectionRowId: "board-1" },
  {
    kind: "p99",
    label: "project-link submit on a board of 1000 cards p99 < 50 ms",
    rowId: "link",
    maxMs: 50,
    oneConnectionRowId: "link-1"
  },
  {
    kind: "p99",
    label: "forge delivery p99 < 50 ms (10 connections: ten hooks delivering at once)",
    rowId: "forge",
    maxMs: 50,
    oneConnectionRowId: "forge-1"
  },
  {
    kind: "scale-up",
    label: "POST /v1/cards at 50 connections >= 8× its 1-connection rate",
    rowId: "create",
    oneConnectionRowId: "create-1",
    min: 8
  }
]
