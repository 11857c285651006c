import { defineConfig } from "vitest/config"
import LongestFirst from "./test/support/sequencer.ts"

/**
 * The suite in layers (docs/development.md, "Test layers"), one vitest project each, so a
 * developer runs one (`pnpm test:unit`, `test:http`, `test:dialect`, `test:e2e`,
 * `test:browser`) and `pnpm test` runs them all. A file under test/ that no list below names is
 * an HTTP suite on the embedded database: the http layer takes every file the others do not.
 */

/** Pure functions and parsers: no board server, no database, no build. Seconds. */
const unit = [
  "packages/*/src/**/*.test.ts",
  "test/cli-parse.test.ts",
  "test/cli-units.test.ts",
  "test/docs-links.test.ts",
  "test/server-flags.test.ts"
]

/**
 * HTTP suites with a PostgreSQL run (support/backends.ts `dialectBackends`, or a block that
 * needs PostgreSQL): what differs between the embedded database and PostgreSQL, that is
 * concurrency, locks, the event horizon, two instances, the database's own views.
 */
const dialect = [
  "test/board.test.ts",
  "test/board-cursor.test.ts",
  "test/board-json.test.ts",
  "test/card-archive.test.ts",
  "test/card-json.test.ts",
  "test/claim-next.test.ts",
  "test/column-kinds.test.ts",
  "test/concurrent-order.test.ts",
  "test/event-clock.test.ts",
  "test/events-history.test.ts",
  "test/events-stream.test.ts",
  "test/forge.test.ts",
  "test/forge-concurrency.test.ts",
  "test/intake.test.ts",
  "test/invitations.test.ts",
  "test/limits.test.ts",
  "test/links.test.ts",
  "test/manage.test.ts",
  "test/migrations.test.ts",
  "test/monitoring.test.ts",
  "test/oauth.test.ts",
  "test/revocation.test.ts",
  "test/trust.test.ts",
  "test/web-session.test.ts",
  "test/webhooks.test.ts"
]

/** The real `board` program (bin/board.mjs, the bundle in dist/) in processes of its own. */
const e2e = [
  "test/e2e/**/*.test.ts",
  "test/agent-lease-sigkill.test.ts",
  "test/backup.test.ts",
  "test/bench-smoke.test.ts",
  "test/bundle.test.ts",
  "test/desktop.test.ts",
  "test/durability.test.ts",
  "test/mcp-instances.test.ts",
  "test/oauth-metadata-document.test.ts",
  "test/openapi-client.test.ts",
  "test/operators.test.ts",
  "test/scaleout.test.ts",
  "test/team-cli.test.ts"
]

/** Chromium (playwright-core) against a real server. */
const browser = [
  "test/consent-browser.test.ts",
  "test/docs-browser.test.ts",
  "test/oidc-browser.test.ts",
  "test/web-board.test.ts",
  "test/web-keys.test.ts",
  "test/web-live-restart.test.ts",
  "test/web-loopback.test.ts",
  "test/web-panel.test.ts",
  "test/web-team.test.ts"
]

// the layers beyond unit run the server or the program from dist/: rebuild it when stale first
const built = { globalSetup: ["test/support/globalSetup.ts"] }

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Each file boots its own server and database: two workers on two cores for the layers that
    // keep the CPU busy (http, browser, unit). The e2e and dialect layers wait more than they
    // compute and run with more workers, each in a group of its own (below): vitest runs projects
    // whose maxWorkers differ only in different groups, one group after another (groupOrder).
    // (Three workers for every layer took longer: 317 s against 302, the extra CPU of contention
    // eating what the packing gained. The runner test that once failed under three workers, a card
    // with a second session, was a too-strict assertion, since fixed: a claim handed back without
    // work ends released or error, and the test counts the work, not the sessions.)
    maxWorkers: 2,
    fileParallelism: true,
    // A worker runs file after file in one module graph instead of a fresh process per file
    // (issue 29): importing Effect, PGlite and the server again for each of 120 files cost about
    // 2.6 s of CPU per file (12 HTTP files: 56 s of CPU isolated, 25 s not). A file still gets its
    // own server, database and port from its own hooks; nothing a file relies on lives in a
    // module's state between files (support/templates.ts caches only the read-only template).
    isolate: false,
    // layer by layer, the longest files first within each (support/sequencer.ts)
    sequence: { sequencer: LongestFirst, groupOrder: 1 },
    projects: [
      { extends: true, test: { name: "unit", include: unit } },
      {
        extends: true,
        test: {
          name: "http",
          include: ["test/**/*.test.ts"],
          exclude: [...unit, ...dialect, ...e2e, ...browser],
          ...built
        }
      },
      {
        extends: true,
        test: {
          name: "dialect",
          include: dialect,
          ...built,
          // Four workers, last: these files mostly wait (webhook backoff, streams ending,
          // PostgreSQL's own work), so two workers left the machine half idle for their minute
          // (75 s on two workers, 58 s on four; 89% busy).
          maxWorkers: 4,
          sequence: { groupOrder: 2 }
        }
      },
      {
        extends: true,
        test: {
          name: "e2e",
          include: e2e,
          ...built,
          // Three workers, first: the spawned programs' start-ups, restarts and leases leave a
          // worker waiting (146 s on two workers, 138 s on three, the same CPU). Each of these
          // files takes its own ports, directories and databases, so they share nothing but cores.
          maxWorkers: 3,
          sequence: { groupOrder: 0 }
        }
      },
      { extends: true, test: { name: "browser", include: browser, ...built } }
    ]
  }
})
