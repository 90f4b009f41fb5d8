import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { createBrokerMetrics } from '../src/http/metrics';

const run = promisify(execFile);
const RULES_DIRECTORY = join(dirname(fileURLToPath(import.meta.url)), '../../../deploy/prometheus');

/** Runs promtool (Debian's prometheus package, installed by scripts/ensure-system-deps.sh). */
async function promtool(...args: string[]): Promise<{ code: number; output: string }> {
  try {
    const { stdout, stderr } = await run('promtool', args, { cwd: RULES_DIRECTORY, timeout: 60_000 });
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const failure = error as NodeJS.ErrnoException & {
      code?: number | string;
      stdout?: string;
      stderr?: string;
    };
    if (failure.code === 'ENOENT') {
      throw new Error('promtool is not installed: run `bash scripts/ensure-system-deps.sh` as root');
    }
    return { code: Number(failure.code ?? 1), output: `${failure.stdout ?? ''}${failure.stderr ?? ''}` };
  }
}

/**
 * deploy/prometheus/weir-alerts.yml: promtool accepts the rules, its unit test
 * (weir-alerts.test.yml) sees each alert fire on a broken cluster and stay quiet on a healthy one,
 * and every metric the rules read is one the broker exports, so a renamed metric cannot leave an
 * alert silently watching nothing.
 */
describe('Prometheus alerting rules', () => {
  it('pass promtool check rules', async () => {
    const checked = await promtool('check', 'rules', 'weir-alerts.yml');
    expect(checked.output).toContain('SUCCESS: 8 rules found');
    expect(checked.code).toBe(0);
  });

  it('pass their promtool unit test: each alert fires when it should and stays quiet when healthy', async () => {
    const tested = await promtool('test', 'rules', 'weir-alerts.test.yml');
    expect(tested.output).toContain('SUCCESS');
    expect(tested.code).toBe(0);
  });

  it('read only metrics the broker exports', async () => {
    const rules = await readFile(join(RULES_DIRECTORY, 'weir-alerts.yml'), 'utf8');
    const read = new Set([...rules.matchAll(/\bweir_[a-z_]+/g)].map((match) => match[0]));
    const exported = new Set(
      (await createBrokerMetrics().registry.getMetricsAsJSON()).map((metric) => metric.name),
    );
    expect([...read].filter((name) => !exported.has(name))).toEqual([]);
    expect(read).toContain('weir_controller_active');
    expect(read).toContain('weir_broker_session_starts_total');
  });
});
