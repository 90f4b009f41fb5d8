import { fileURLToPath } from 'node:url';
import type { NextConfig } from 'next';

// The monorepo root. Turbopack must see it as the project root, or it refuses to compile
// packages/ui, which lives outside apps/console; file tracing needs it for the same reason.
const workspaceRoot = fileURLToPath(new URL('../..', import.meta.url));

const nextConfig: NextConfig = {
  // @weir/ui ships TypeScript sources (its exports point at src/), so Next compiles it like app code.
  transpilePackages: ['@weir/ui'],
  turbopack: { root: workspaceRoot },
  outputFileTracingRoot: workspaceRoot,
  reactStrictMode: true,
  poweredByHeader: false,
};

export default nextConfig;
