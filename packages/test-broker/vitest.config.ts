import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'test-broker',
    // CI shares two cores with builds and browsers; a busy machine must not turn a slow test into
    // a failure. A hung test still fails, after this long.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    include: ['src/**/*.test.ts'],
  },
});
