import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'broker',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
  },
});
