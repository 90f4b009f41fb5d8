import { fileURLToPath } from 'node:url';
import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: {
    alias: {
      // `server-only` throws when imported outside a React Server Components build; tests run the
      // server modules under plain Node, where the guard has nothing to protect.
      'server-only': fileURLToPath(new URL('./test/server-only-stub.ts', import.meta.url)),
    },
  },
  // Next.js compiles the JSX itself (tsconfig says `preserve`); tests that render components need
  // it compiled here.
  oxc: { jsx: { runtime: 'automatic' } },
  test: {
    name: 'console',
    // CI shares two cores with builds and browsers; a busy machine must not turn a slow test into
    // a failure. A hung test still fails, after this long.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    environment: 'node',
  },
});
