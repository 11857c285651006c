/**
 * The order the suite's files start in, within each of vitest.config.ts's groups: layer by layer,
 * the longest files first within each, so the workers do not end on one long file while the
 * others have nothing left (issue 29).
 *
 * Layer by layer because vitest reuses a worker process for the next file (`isolate: false`) only
 * when that file belongs to the same project; a file of another layer starts a new process that
 * imports vitest, Effect, PGlite and the server again, 2-4 s of CPU. Interleaving the layers by
 * length cost about 1.4 s of idle worker per file (180 s of 950 worker-seconds in one run); in a
 * group of several layers (http, browser, unit) the layers whose longest files are longest go
 * first, so the short unit files fill the group's end.
 *
 * A file's place comes from vitest's cached duration of its last run when there is one (a
 * developer's machine), else from `expectedSeconds` (a full run on a machine like CI's, 2 cores), else
 * after the known files of its layer, in vitest's order. A wrong or stale figure only costs
 * packing, never a result.
 */
import { BaseSequencer, type TestSpecification } from "vitest/node"

/** Seconds each file took in a full run with CI's databases and workers (the files of 4 s or more): a fresh clone's `.ci/run`, 2026-11-27. */
const expectedSeconds: Record<string, number> = {
  "test/durability.test.ts": 80,
  "test/webhooks.test.ts": 54,
  "test/e2e/launch.test.ts": 52,
  "test/bench-smoke.test.ts": 47,
  "test/e2e/agent-runner.test.ts": 39,
  "test/revocation.test.ts": 32,
  "test/e2e/cli.test.ts": 32,
  "test/concurrent-order.test.ts": 31,
  "test/docs-browser.test.ts": 30,
  "test/hostile-generated.test.ts": 29,
  "test/e2e/lock.test.ts": 25,
  "test/oidc-browser.test.ts": 24,
  "test/e2e/serve.test.ts": 23,
  "test/events-stream.test.ts": 22,
  "test/web-board.test.ts": 19,
  "test/desktop.test.ts": 17,
  "test/web-panel.test.ts": 15,
  "test/backup.test.ts": 15,
  "test/access-scopes.test.ts": 15,
  "test/operators.test.ts": 14,
  "test/scaleout.test.ts": 13,
  "test/board-json.test.ts": 13,
  "test/e2e/agent-runner-service.test.ts": 13,
  "test/e2e/cli-agent.test.ts": 13,
  "test/access-roles.test.ts": 12,
  "test/e2e/cli-manage.test.ts": 12,
  "test/hostile.test.ts": 12,
  "test/e2e/cli-safety.test.ts": 11,
  "test/forge.test.ts": 11,
  "test/web-keys.test.ts": 11,
  "test/access-matrix.test.ts": 11,
  "test/board.test.ts": 11,
  "test/web-live-restart.test.ts": 11,
  "test/limits.test.ts": 11,
  "test/board-access.test.ts": 10,
  "test/board-cursor.test.ts": 10,
  "test/e2e/cli-comments.test.ts": 10,
  "test/oauth.test.ts": 9,
  "test/e2e/cli-agents.test.ts": 9,
  "test/web-team.test.ts": 9,
  "test/forge-concurrency.test.ts": 9,
  "test/monitoring.test.ts": 8,
  "test/claim-next.test.ts": 8,
  "test/manage.test.ts": 8,
  "test/web-session.test.ts": 8,
  "test/card-archive.test.ts": 8,
  "test/e2e/startup.test.ts": 7,
  "test/intake.test.ts": 7,
  "test/invitations.test.ts": 7,
  "test/trust.test.ts": 7,
  "test/links.test.ts": 7,
  "test/oauth-metadata-document.test.ts": 7,
  "test/mcp-sessions.test.ts": 6,
  "test/agent-lease-sigkill.test.ts": 6,
  "test/openapi-client.test.ts": 6,
  "test/web-loopback.test.ts": 6,
  "test/mcp-instances.test.ts": 6,
  "test/schema.test.ts": 6,
  "test/team-cli.test.ts": 5,
  "packages/core/src/auth/passwords.test.ts": 5,
  "test/column-kinds.test.ts": 4,
  "test/foundation.test.ts": 4
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
