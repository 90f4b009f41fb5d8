import { type RunningBroker, startBroker } from '@weir/test-broker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectExitCode, weir } from './cli-runner';

/**
 * `weir audit list` against a real broker: a topic created with `weir topic create` is recorded
 * with the CLI's own client id, and the filters narrow the list the same way as on the console.
 */
describe('weir audit list', () => {
  let running: RunningBroker;
  let flags: string[];

  beforeAll(async () => {
    running = await startBroker({ topics: { autoCreateEnable: false } });
    flags = ['--internal', running.internalBootstrap, '--token', running.internalToken];
    expectExitCode(
      await weir(['-b', running.bootstrap, 'topic', 'create', 'cli-audited', '--partitions', '2']),
      0,
    );
    // Created again: refused, and recorded as refused.
    await weir(['-b', running.bootstrap, 'topic', 'create', 'cli-audited', '--partitions', '2']);
  });

  afterAll(async () => {
    await running?.dispose();
  });

  it('lists the CLI’s actions with its client id, newest first, as JSON lines', async () => {
    const { stdout } = expectExitCode(
      await weir(['audit', 'list', '--json', '--resource', 'AUDITED', ...flags]),
      0,
    );
    const events = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(
      events.map((event) => [event.action, event.resourceName, event.outcomeName, event.clientId]),
    ).toEqual([
      ['create-topic', 'cli-audited', 'TOPIC_ALREADY_EXISTS', 'weir-cli'],
      ['create-topic', 'cli-audited', 'NONE', 'weir-cli'],
    ]);
    expect(events[1].principal).toBe('User:ANONYMOUS');
    expect(events[1].input).toEqual({ partitions: 2, replicationFactor: -1 });
  });

  it('filters by outcome and prints a table, with the cursor of the next page on stderr', async () => {
    const failed = expectExitCode(await weir(['audit', 'list', '--outcome', 'failed', ...flags]), 0);
    const lines = failed.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^TIME\s+PRINCIPAL\s+ACTION\s+RESOURCE\s+OUTCOME\s+INPUT\s+CLIENT$/);
    expect(lines.slice(1)).toHaveLength(1);
    expect(lines[1]).toMatch(/User:ANONYMOUS\s+create-topic\s+topic:cli-audited\s+TOPIC_ALREADY_EXISTS/);

    const first = expectExitCode(await weir(['audit', 'list', '--limit', '1', '--json', ...flags]), 0);
    const cursor = /^more: --before (\S+)$/m.exec(first.stderr)?.[1];
    expect(cursor).toBeDefined();
    const older = expectExitCode(await weir(['audit', 'list', '--before', cursor!, '--json', ...flags]), 0);
    expect(
      older.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).outcomeName),
    ).toEqual(['NONE']);
  });

  it('refuses an unknown action as a usage error', async () => {
    const result = expectExitCode(await weir(['audit', 'list', '--action', 'drop-everything', ...flags]), 2);
    expect(result.stderr).toContain('--action');
  });
});
