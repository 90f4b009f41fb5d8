import { defineConfig } from '@playwright/test';
import base from './playwright.config';

/*
 * Browser tests that need a real three-broker cluster (e2e/cluster-*.spec.ts): the same browser
 * and reporters as playwright.config.ts, with one web server that starts etcd, three brokers and
 * the console (e2e/serve-cluster-console.ts). One worker: the specs stop and start brokers of the
 * one cluster they share.
 */

const missingBuildMessage = 'The console is not built: run `npm run build -w @weir/console` first.';

export default defineConfig({
  ...base,
  testMatch: 'cluster-*.spec.ts',
  testIgnore: [],
  workers: 1,
  reporter: [['list'], ['json', { outputFile: '.test-results/playwright-cluster.json' }]],
  webServer: [
    {
      command: `test -f apps/console/.next/BUILD_ID || { echo '${missingBuildMessage}' >&2; exit 1; }; exec npx --no-install tsx e2e/serve-cluster-console.ts`,
      env: { NEXT_TELEMETRY_DISABLED: '1' },
      wait: { stdout: /Local:\s+(?<playwright_test_base_url>http:\/\/127\.0\.0\.1:\d+)[\s\S]*Ready in/ },
      gracefulShutdown: { signal: 'SIGTERM', timeout: 20_000 },
      reuseExistingServer: false,
      timeout: 180_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
  ],
});
