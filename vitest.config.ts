import { defineConfig } from 'vitest/config';

// One Vitest run covers every workspace; each package keeps its tests beside its code.
export default defineConfig({
  test: {
    projects: ['packages/*', 'apps/broker', 'bench'],
  },
});
