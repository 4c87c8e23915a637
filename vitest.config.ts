import { defineConfig } from "vitest/config"

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    globalSetup: ["test/support/globalSetup.ts"],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    pool: "forks",
    // each test file gets its own database cloned from a migrated template; two cores, two workers
    maxWorkers: 2,
    minWorkers: 1
  }
})
