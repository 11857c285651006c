/**
 * Cleanup on every exit path: the steps registered as the run goes (stop a child, remove a
 * directory, drop the database) run last first, once, on a normal end, an error, SIGINT, SIGTERM,
 * or `abort` (the overall time limit), after any running load or pgbench is stopped.
 */
import { stopActivePgbench } from "./floors.ts"
import { stopActiveLoad } from "./load.ts"
import { log } from "./log.ts"

export const cleanups: Array<{ name: string; run: () => Promise<void> }> = []
let cleaning: Promise<void> | undefined
export const cleanup = (): Promise<void> => {
  cleaning ??= (async () => {
    stopActiveLoad()
    stopActivePgbench()
    while (cleanups.length > 0) {
      const step = cleanups.pop()!
      try {
        await step.run()
      } catch (err) {
        log(`cleanup: ${step.name} failed: ${err instanceof Error ? err.message : String(err)}`)
      }
    }
  })()
  return cleaning
}
export const abort = (why: string, code: number) => {
  log(why)
  void cleanup().finally(() => process.exit(code))
}
process.once("SIGINT", () => abort("interrupted (SIGINT): cleaning up", 130))
process.once("SIGTERM", () => abort("terminated (SIGTERM): cleaning up", 143))
process.on("uncaughtException", (err) => abort(`uncaught: ${err.stack ?? err}`, 1))
process.on("unhandledRejection", (err) =>
  abort(`unhandled rejection: ${err instanceof Error ? err.stack : String(err)}`, 1)
)
