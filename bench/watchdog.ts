/**
 * The run's overall time limit: long enough for every selected scenario and the phases around
 * them at the run's sizes, after which the run is aborted and cleaned up like on any other exit.
 */
import { abort } from "./cleanup.ts"
import { floorIds } from "./floors.ts"
import {
  duration,
  embeddedIds,
  eventStreamIds,
  quietBudgetSeconds,
  scenarioIds,
  selected,
  sizes,
  warmup,
  webIds
} from "./options.ts"

/** Starts the watchdog (it does not keep the process alive); the scenarios selected and the limit, for the log. */
export const startWatchdog = (): { scenarioCount: number; limitSeconds: number } => {
  // the watchdog: every selected scenario (with a possible re-measure inside the quiet budget),
  // start-up and seeding up to the 100,000-card corpus, the thin service's and pgbench's tables, the growth steps after
  // the main scenarios, and the embedded server's start-up and seeding through the API
  const scenarioCount = scenarioIds.filter(selected).length
  const growthSeconds =
    (selected("board-100-cards") || selected("board-10000-cards")
      ? Math.ceil((sizes.boardScale[2] / 1_000_000) * 300) + 30
      : 0) + (selected("search-1m-cards") ? Math.ceil((sizes.searchScale[2] / 1_000_000) * 600) + 30 : 0)
  const floorTablesSeconds = (floorIds.some(selected) ? 60 : 0) + 60
  const embeddedSeconds = embeddedIds.some(selected) ? 180 : 0
  // a second server's start, 200 paced writes with their delivery, 1,000 streams opened and probed
  const streamSeconds = eventStreamIds.some(selected) ? 120 : 0
  // 1,000 cards through the API, three cold loads of up to 30 s each
  const webSeconds = webIds.some(selected) ? 180 : 0
  const limitSeconds =
    scenarioCount * (duration + warmup + 16) +
    quietBudgetSeconds +
    300 +
    growthSeconds +
    floorTablesSeconds +
    embeddedSeconds +
    streamSeconds +
    webSeconds
  const watchdog = setTimeout(
    () => abort(`the benchmark exceeded its ${limitSeconds} s limit: cleaning up`, 1),
    limitSeconds * 1000
  )
  watchdog.unref()
  return { scenarioCount, limitSeconds }
}
