/**
 * The order the suite's files start in: the longest first, whatever their layer, so the two
 * workers do not end on one long file while the other has nothing left (issue 29). Vitest's own
 * order runs the layers one after another and, on a fresh clone (no timings cached), larger
 * files first; the few files below take a minute or more of one worker, so they go first.
 *
 * A file's place comes from vitest's cached duration of its last run when there is one (a
 * developer's machine), else from `expectedSeconds` (measured on the CI machine, 2 cores), else
 * after every known file, in vitest's order. A wrong or stale figure only costs packing, never a
 * result.
 */
import { BaseSequencer, type TestSpecification } from "vitest/node"

/** Seconds of one worker each file took in a CI run (the files over about 15 s). */
const expectedSeconds: Record<string, number> = {
  "test/durability.test.ts": 100,
  "test/hostile-generated.test.ts": 85,
  "test/e2e/launch.test.ts": 55,
  "test/bench-smoke.test.ts": 32,
  "test/webhooks.test.ts": 40,
  "test/access-matrix.test.ts": 35,
  "test/agent-lease-sigkill.test.ts": 33,
  "test/revocation.test.ts": 33,
  "test/e2e/agent-runner.test.ts": 30,
  "test/events-stream.test.ts": 30,
  "test/e2e/serve.test.ts": 29,
  "test/access-roles.test.ts": 26,
  "test/docs-browser.test.ts": 26,
  "test/hostile.test.ts": 25,
  "test/e2e/lock.test.ts": 25,
  "test/concurrent-order.test.ts": 25,
  "test/board-access.test.ts": 23,
  "test/access-scopes.test.ts": 20,
  "test/web-panel.test.ts": 20,
  "test/limits.test.ts": 19,
  "test/board-json.test.ts": 18,
  "test/oidc-browser.test.ts": 18,
  "test/e2e/agent-runner-service.test.ts": 18,
  "test/web-board.test.ts": 17,
  "test/e2e/cli.test.ts": 14
}

export default class LongestFirst extends BaseSequencer {
  override async sort(files: Array<TestSpecification>): Promise<Array<TestSpecification>> {
    const base = await super.sort(files)
    const rank = new Map(base.map((spec, i) => [spec, i]))
    const seconds = (spec: TestSpecification): number | undefined => {
      const cached = this.ctx.cache.getTestSpecificationResult(spec)?.duration
      if (cached !== undefined) return cached / 1000
      const relative = spec.moduleId.slice(spec.project.config.root.length + 1)
      return expectedSeconds[relative]
    }
    return [...base].sort((a, b) => {
      const sa = seconds(a)
      const sb = seconds(b)
      if (sa !== undefined && sb !== undefined && sa !== sb) return sb - sa
      if (sa !== undefined && sb === undefined) return -1
      if (sa === undefined && sb !== undefined) return 1
      return rank.get(a)! - rank.get(b)!
    })
  }
}
