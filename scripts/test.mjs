#!/usr/bin/env node
// The README's test command: lint, type-check, unit and integration tests (Vitest), browser tests
// (Playwright with Debian's Chromium). Every step runs even when an earlier one fails, so one run
// reports everything; the summed test counts are printed last as "N passed, N failed" and written
// to .test-results/summary.txt, which .ci/run prints as its closing line.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const resultsDir = join(root, '.test-results');
rmSync(resultsDir, { recursive: true, force: true });
mkdirSync(resultsDir, { recursive: true });

/** Runs one step with inherited output; returns whether it exited 0. */
function step(title, command, args) {
  console.log(`\n── ${title}: ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: childEnv });
  if (result.error) console.error(`${title} could not start: ${result.error.message}`);
  return result.status === 0;
}

function readJson(path) {
  if (!existsSync(path)) return undefined;
  try {
    return JSON.parse(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
}

// Telemetry would try to reach the network, which tests must not depend on.
const childEnv = {
  ...process.env,
  TURBO_TELEMETRY_DISABLED: '1',
  NEXT_TELEMETRY_DISABLED: '1',
  DO_NOT_TRACK: '1',
};
const failures = [];
const tally = { passed: 0, failed: 0, skipped: 0 };

if (!step('system packages', 'bash', ['scripts/ensure-system-deps.sh'])) failures.push('system packages');
// The KIP-848 client test's @platformatic/kafka and the Node 22 it needs live in a package of their
// own: inside the workspaces, that Node would come first on every npm script's PATH.
const platformaticDir = 'apps/broker/test/clients/platformatic';
if (
  !existsSync(join(root, platformaticDir, 'node_modules/@platformatic/kafka/package.json')) &&
  !step('test clients', 'npm', ['ci', '--prefix', platformaticDir, '--no-audit', '--no-fund'])
) {
  failures.push('test clients');
}
if (!step('lint and format', 'npx', ['biome', 'ci', '.'])) failures.push('lint');
if (!step('type-check', 'npx', ['turbo', 'run', 'typecheck', '--output-logs=errors-only']))
  failures.push('type-check');
if (!step('type-check (root configs)', 'npx', ['tsc', '-p', 'tsconfig.json'])) failures.push('type-check');

const vitestReport = join(resultsDir, 'vitest.json');
if (
  !step('unit and integration tests', 'npx', [
    'vitest',
    'run',
    '--reporter=default',
    '--reporter=json',
    `--outputFile.json=${vitestReport}`,
  ])
) {
  failures.push('vitest');
}
const vitest = readJson(vitestReport);
if (vitest) {
  tally.passed += vitest.numPassedTests;
  tally.failed += vitest.numFailedTests;
  tally.skipped += vitest.numPendingTests + vitest.numTodoTests;
} else {
  failures.push('vitest report missing');
}

// The browser tests run against the production build, so a run can never test a stale build.
const playwrightReport = join(resultsDir, 'playwright.json');
if (
  !step('console build', 'npx', [
    'turbo',
    'run',
    'build',
    '--filter=@weir/console',
    '--output-logs=errors-only',
  ])
) {
  failures.push('console build');
} else if (!step('browser tests', 'npx', ['playwright', 'test'])) {
  failures.push('playwright');
}
// The specs that need a three-broker cluster run against their own (playwright.cluster.config.ts).
const clusterReport = join(resultsDir, 'playwright-cluster.json');
if (!failures.includes('console build')) {
  if (
    !step('cluster browser tests', 'npx', ['playwright', 'test', '--config', 'playwright.cluster.config.ts'])
  ) {
    failures.push('playwright cluster');
  }
}
for (const [name, path] of [
  ['playwright', playwrightReport],
  ['playwright cluster', clusterReport],
]) {
  const report = readJson(path);
  if (report?.stats) {
    tally.passed += report.stats.expected + report.stats.flaky;
    tally.failed += report.stats.unexpected;
    tally.skipped += report.stats.skipped;
  } else {
    failures.push(`${name} report missing`);
  }
}

// A step that failed without a failing test (a lint error, a crash before tests ran) still counts
// as a failure, so the closing line can never read "0 failed" for a broken run.
const failedCount = Math.max(tally.failed, failures.length > 0 ? 1 : 0);
const summary = `${tally.passed} passed, ${failedCount} failed${tally.skipped ? `, ${tally.skipped} skipped` : ''}`;
writeFileSync(join(resultsDir, 'summary.txt'), `${summary}\n`);
if (failures.length > 0) console.log(`\nFailed steps: ${failures.join(', ')}`);
console.log(summary);
process.exit(failures.length > 0 ? 1 : 0);
