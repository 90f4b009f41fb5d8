import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

// The cluster soak only (run-soak.ts starts it): not a project of the root Vitest config, so
// `npm test` never runs it. Its output is the report, so the console is not held back.
export default defineConfig({
  test: {
    root: fileURLToPath(new URL('.', import.meta.url)),
    include: ['cluster.soak.ts'],
    hookTimeout: 120_000,
  },
});
