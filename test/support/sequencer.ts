/**
 * The order the suite's files start in: layer by layer, the longest files first within each, so
 * the two workers do not end on one long file while the other has nothing left (issue 29).
 *
 * Layer by layer because vitest reuses a worker process for the next file (`isolate: false`) only
 * when that file belongs to the same project; a file of another layer starts a new process that
 * imports vitest, Effect, PGlite and the server again, 2-4 s of CPU. Interleaving the layers by
 * length cost about 1.4 s of idle worker per file (180 s of 950 worker-seconds in one run); the
 * layers whose longest files are longest go first, so the short unit files fill the end.
 *
 * A file's place comes from vitest's cached duration of its last run when there is one (a
 * developer's machine), else from `expectedSeconds` (measured on the CI machine, 2 cores), else
 * after the known files of its layer, in vitest's order. A wrong or stale figure only costs
 * packing, never a result.
 */
import { BaseSequencer, type TestSpecification } from "vitest/node"

/** Seconds of one worker each file took in a run as CI runs it (the files over about 4 s). */
const expectedSeconds: Record<string, number> = {
  "test/webhooks.test.ts": 35,
  "test/durability.test.ts": 49,
  "test/bench-smoke.test.ts": 30,
  "test/e2e/launch.test.ts": 27,
  "test/hostile-generated.test.ts": 26,
  "test/e2e/agent-runner.test.ts": 26,
  "test/events-stream.test.ts": 25,
  "test/revocation.test.ts": 23,
  "test/docs-browser.test.ts": 22,
  "test/e2e/serve.test.ts": 22,
  "test/concurrent-order.test.ts": 20,
  "test/oidc-browser.test.ts": 18,
  "test/e2e/cli.test.ts": 17,
  "test/access-scopes.test.ts": 16,
  "test/web-board.test.ts": 15,
  "test/e2e/lock.test.ts": 14,
  "test/access-roles.test.ts": 13,
  "test/web-panel.test.ts": 12,
  "test/access-matrix.test.ts": 12,
  "test/e2e/agent-runner-service.test.ts": 12,
  "test/hostile.test.ts": 10,
  "test/agent-lease-sigkill.test.ts": 10,
  "test/desktop.test.ts": 9,
  "test/e2e/cli-agent.test.ts": 9,
  "test/board-access.test.ts": 8,
  "test/backup.test.ts": 8,
  "test/web-live-restart.test.ts": 7,
  "test/operators.test.ts": 7,
  "test/scaleout.test.ts": 7,
  "test/e2e/cli-safety.test.ts": 7,
  "test/limits.test.ts": 6,
  "test/web-keys.test.ts": 6,
  "test/e2e/cli-manage.test.ts": 6,
  "packages/core/src/auth/passwords.test.ts": 6,
  "test/web-team.test.ts": 5,
  "test/mcp-sessions.test.ts": 5,
  "test/schema.test.ts": 5,
  "test/board-json.test.ts": 4,
  "test/claim-next.test.ts": 4,
  "test/oauth.test.ts": 4,
  "test/e2e/cli-comments.test.ts": 4,
  "test/e2e/startup.test.ts": 4
}

export default class LongestFirst extends BaseSequencer {
  override async sort(files: Array<TestSpecification>): Promise<Array<TestSpecification>> {
    const base = await super.sort(files)
    const rank = new Map(base.map((spec, i) => [spec, i]))
    const seconds = (spec: TestSpecification): number => {
      const cached = this.ctx.cache.getTestSpecificationResult(spec)?.duration
      if (cached !== undefined) return cached / 1000
      const relative = spec.moduleId.slice(spec.project.config.root.length + 1)
      return expectedSeconds[relative] ?? 0
    }
    // a layer starts where its longest file says: the layers with the longest files go first
    const longest = new Map<string, number>()
    for (const spec of base) {
      const name = spec.project.name
      longest.set(name, Math.max(longest.get(name) ?? 0, seconds(spec)))
    }
    return [...base].sort((a, b) => {
      if (a.project.name !== b.project.name) {
        const byLayer = longest.get(b.project.name)! - longest.get(a.project.name)!
        return byLayer !== 0 ? byLayer : a.project.name < b.project.name ? -1 : 1
      }
      const bySeconds = seconds(b) - seconds(a)
      return bySeconds !== 0 ? bySeconds : rank.get(a)! - rank.get(b)!
    })
  }
}
