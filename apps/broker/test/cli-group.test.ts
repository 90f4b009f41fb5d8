import { type RunningBroker, startBroker } from '@weir/test-broker';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { expectExitCode, weir } from './cli-runner';

// Each run of the binary costs about a second of start-up.
vi.setConfig({ testTimeout: 30_000 });

/** `weir group …` and `weir consume --group` against a real broker, through the real binary. */
describe('weir group', () => {
  let broker: RunningBroker;
  const cli = (...args: string[]) => weir(['-b', broker.bootstrap, ...args]);
  /** `weir group lag` asks the broker's lag view on the internal listener. */
  const lag = (groupId: string) =>
    weir(['group', 'lag', groupId, '--internal', broker.internalBootstrap, '--token', broker.internalToken]);

  beforeAll(async () => {
    broker = await startBroker({
      topics: { autoCreateEnable: false },
      groups: { initialRebalanceDelayMs: 100, offsetsTopicPartitions: 4 },
    });
    expectExitCode(await cli('topic', 'create', 'orders', '--partitions', '2'), 0);
    for (const partition of [0, 1]) {
      const lines = [0, 1, 2].map((index) => `m${partition * 3 + index}\n`).join('');
      const produced = await weir(
        ['-b', broker.bootstrap, 'produce', 'orders', '--partition', String(partition)],
        {
          input: lines,
        },
      );
      expectExitCode(produced, 0);
    }
  });
  afterAll(async () => {
    await broker?.dispose();
  });

  it('consume --group resumes where the last run stopped', async () => {
    const first = expectExitCode(
      await cli('consume', 'orders', '--group', 'g1', '--from', 'beginning', '--max-messages', '4'),
      0,
    );
    const firstLines = first.stdout.trim().split('\n');
    expect(firstLines).toHaveLength(4);
    const second = expectExitCode(await cli('consume', 'orders', '--group', 'g1', '--timeout-ms', '1500'), 0);
    const secondLines = second.stdout.trim().split('\n');
    expect([...firstLines, ...secondLines].sort()).toEqual(['m0', 'm1', 'm2', 'm3', 'm4', 'm5']);
    expect(second.stderr).toContain('Consumed 2 records.');
  });

  it('lists, describes and shows the lag of a group', async () => {
    const listed = expectExitCode(await cli('group', 'list'), 0);
    expect(listed.stdout).toMatch(/^GROUP\s+STATE\s+PROTOCOL-TYPE\s+MEMBERS\n/);
    expect(listed.stdout).toMatch(/\ng1\s+Empty\s+consumer\s+0\n/);
    const described = expectExitCode(await cli('group', 'describe', 'g1'), 0);
    expect(described.stdout).toContain('Group: g1  State: Empty');
    const shown = expectExitCode(await lag('g1'), 0);
    expect(shown.stdout).toMatch(/^TOPIC\s+PARTITION\s+COMMITTED\s+LOG-END\s+LAG\n/);
    expect(shown.stdout).toMatch(/\norders\s+0\s+\d\s+3\s+\d\n/);
    expect(shown.stdout).toContain('Total lag: 0\n');
    const unknown = await lag('no-such-group');
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toContain('GROUP_ID_NOT_FOUND');
  });

  it('reset-offsets prints a plan by default and applies it with --execute', async () => {
    const dry = expectExitCode(await cli('group', 'reset-offsets', 'g1', '--to', 'earliest'), 0);
    expect(dry.stdout).toMatch(
      /^TOPIC\s+PARTITION\s+CURRENT\s+NEW\norders\s+0\s+3\s+0\norders\s+1\s+3\s+0\n/,
    );
    expect(dry.stdout).toContain('Dry run: nothing changed.');
    expect((await lag('g1')).stdout).toContain('Total lag: 0\n');

    const applied = expectExitCode(
      await cli('group', 'reset-offsets', 'g1', '--to', 'earliest', '--execute'),
      0,
    );
    expect(applied.stdout).toContain('Reset 2 partition(s) of group "g1".');
    expect((await lag('g1')).stdout).toContain('Total lag: 6\n');

    const shifted = expectExitCode(
      await cli('group', 'reset-offsets', 'g1', '--shift-by', '1', '--topic', 'orders', '--execute'),
      0,
    );
    expect(shifted.stdout).toMatch(/orders\s+0\s+0\s+1\n/);
    expect((await lag('g1')).stdout).toContain('Total lag: 4\n');

    const both = await cli('group', 'reset-offsets', 'g1', '--to', 'latest', '--shift-by', '1');
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('exactly one of --to and --shift-by');
  });

  it('reset-offsets warns on stderr for each partition a target past the end is kept at the end', async () => {
    const beyond = expectExitCode(await cli('group', 'reset-offsets', 'g1', '--to', '10'), 0);
    expect(beyond.stdout).toMatch(/orders\s+0\s+1\s+3\n/);
    expect(beyond.stderr).toBe(
      'warning: orders-0: offset 10 is past the log end; using 3\n' +
        'warning: orders-1: offset 10 is past the log end; using 3\n',
    );
    expect(expectExitCode(await cli('group', 'reset-offsets', 'g1', '--to', '2'), 0).stderr).toBe('');
  });

  it('deletes a group', async () => {
    const deleted = expectExitCode(await cli('group', 'delete', 'g1'), 0);
    expect(deleted.stdout).toBe('Deleted group "g1".\n');
    expect((await cli('group', 'list')).stdout).not.toMatch(/\ng1\s/);
    const again = await cli('group', 'delete', 'g1');
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain('GROUP_ID_NOT_FOUND');
  });
});
