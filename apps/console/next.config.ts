import { fileURLToPath } from 'node:url';
import type { NextConfig } from 'next';

// The monorepo root. Turbopack must see it as the project root, or it refuses to compile
// packages/ui, which lives outside apps/console; file tracing needs it for the same reason.
const workspaceRoot = fileURLToPath(new URL('../..', import.meta.url));

const nextConfig: NextConfig = {
  // @weir/ui and @weir/protocol ship TypeScript sources (their exports point at src/), so Next
  // compiles them like app code.
  transpilePackages: ['@weir/ui', '@weir/protocol'],
  // The protocol package's compression and checksum codecs are native addons: they must be loaded
  // by Node at run time, never bundled. pino starts worker threads from files of its own, which
  // bundling would break as well.
  serverExternalPackages: ['@node-rs/crc32', '@node-rs/xxhash', 'lz4-napi', 'zstd-napi', 'snappy', 'pino'],
  turbopack: { root: workspaceRoot },
  outputFileTracingRoot: workspaceRoot,
  reactStrictMode: true,
  poweredByHeader: false,
};

export default nextConfig;
