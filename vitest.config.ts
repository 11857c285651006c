import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    globalSetup: ["test/support/globalSetup.ts"],
    include: ["packages/*/src/**/*.test.ts", "test/**/*.test.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // Each HTTP test file boots its own server and database; two cores cannot run many at once.
    maxWorkers: 2,
    fileParallelism: true
  }
})
