import { defineConfig } from 'vitest/config';

// One Vitest run covers every workspace that has unit tests; each keeps its tests beside its code.
export default defineConfig({
  test: {
    projects: ['packages/*/vitest.config.ts', 'apps/*/vitest.config.ts', 'bench/vitest.config.*'],
  },
});
