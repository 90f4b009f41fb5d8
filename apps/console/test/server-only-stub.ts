// Stands in for `server-only` in tests (see vitest.config.ts): importing it does nothing.
export {};
