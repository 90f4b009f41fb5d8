import { defineConfig, devices } from '@playwright/test';

/*
 * Browser tests for the console. Specs use relative URLs; the server's address reaches them
 * through Playwright's `baseURL`. This is the only e2e module that reads `process.env`.
 */

// Debian's Chromium (installed by scripts/ensure-system-deps.sh). Playwright's own browser
// download cannot work on machines without general network access, so we never rely on it.
const chromiumExecutablePath = '/usr/bin/chromium';
const chromiumArgs = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/*
 * The console listens on a port the kernel picks (`--port 0`), so it can never collide with a
 * console a developer already runs on 3000, nor with a parallel test run, and there is no window
 * between choosing a free port and binding it. Next.js prints the bound address; the named group
 * below makes Playwright store it in PLAYWRIGHT_TEST_BASE_URL, the variable its own `baseURL`
 * option defaults to (webServer's `port` option uses the same path). Workers start after the
 * server is up and inherit it, so specs just use relative URLs. If a Next.js upgrade changes the
 * banner, the run stops with a web server timeout instead of testing the wrong address.
 */
const consoleReadyPattern = /Local:\s+(?<playwright_test_base_url>http:\/\/127\.0\.0\.1:\d+)[\s\S]*Ready in/;

const missingBuildMessage = 'The console is not built: run `npm run build -w @weir/console` first.';

export default defineConfig({
  testDir: 'e2e',
  // The cluster specs run against their own three-broker cluster (playwright.cluster.config.ts).
  testIgnore: 'cluster-*.spec.ts',
  outputDir: '.test-results/playwright-artifacts',
  fullyParallel: true,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  // The first specs of a run share two cores with the console's first page compilations and the
  // broker's start; on a loaded machine the long flows came within seconds of Playwright's
  // defaults (30 s per test, 5 s per assertion), so both get headroom. Waits are still events.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  // The root test runner sums results from the JSON report; `list` is for people.
  reporter: [['list'], ['json', { outputFile: '.test-results/playwright.json' }]],
  use: {
    trace: 'retain-on-failure',
  },
  // Every spec talks to the one broker the web server started; the flows create their own topics
  // and groups, so they can share it, but two CPU cores do not gain from many workers.
  workers: 2,
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: { executablePath: chromiumExecutablePath, args: chromiumArgs },
      },
    },
  ],
  webServer: [
    {
      // A real broker plus the production console build (see e2e/serve-console.ts). Next.js prints
      // its "Ready" banner before it notices a missing build, so the guard stops the run up front
      // with the command that fixes it.
      command: `test -f apps/console/.next/BUILD_ID || { echo '${missingBuildMessage}' >&2; exit 1; }; exec npx --no-install tsx e2e/serve-console.ts`,
      env: { NEXT_TELEMETRY_DISABLED: '1' },
      wait: { stdout: consoleReadyPattern },
      // SIGTERM lets the script stop the console by its PID and remove the broker's data directory.
      gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      // The same with the secure profile and the console in login mode, for login.spec.ts; it
      // writes its URL to .test-results/e2e-login.json before printing this line.
      command: `test -f apps/console/.next/BUILD_ID || { echo '${missingBuildMessage}' >&2; exit 1; }; exec npx --no-install tsx e2e/serve-console.ts --login`,
      env: { NEXT_TELEMETRY_DISABLED: '1' },
      wait: { stdout: /WEIR_LOGIN_CONSOLE_URL=http/ },
      gracefulShutdown: { signal: 'SIGTERM', timeout: 10_000 },
      reuseExistingServer: false,
      timeout: 60_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
  ],
});
