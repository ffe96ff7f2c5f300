import { defineConfig } from 'vitest/config';

// Four named layers; only the integration layer starts the local stack (DynamoDB Local + fauxqs).
export default defineConfig({
  test: {
    // A floor under the core's coverage (unit and handler layers; the integration layer runs in another process).
    coverage: {
      provider: 'v8',
      include: ['shared/domain/**/*.ts'],
      reporter: ['text-summary'],
      thresholds: { lines: 65, functions: 65, branches: 60, statements: 65 },
    },
    projects: [
      { test: { name: 'unit', include: ['tests/unit/**/*.test.ts'] } },
      {
        test: {
          name: 'handler',
          include: ['tests/handler/**/*.test.ts'],
          setupFiles: ['tests/support/handler-setup.ts'],
        },
      },
      { test: { name: 'infra', include: ['tests/infra/**/*.test.ts'], testTimeout: 120_000, hookTimeout: 120_000 } },
      {
        test: {
          name: 'integration',
          // The fuzz layer shares the integration layer's local stack.
          include: ['tests/integration/**/*.test.ts', 'tests/fuzz/**/*.test.ts'],
          globalSetup: ['tests/support/local-stack-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
