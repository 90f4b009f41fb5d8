import { defineProject } from 'vitest/config';

// `passWithNoTests` is a root-only option in Vitest 4 (ignored per project), so the harness has
// tests of its own instead.
export default defineProject({
  test: {
    name: 'bench',
    include: ['**/*.test.ts'],
  },
});
