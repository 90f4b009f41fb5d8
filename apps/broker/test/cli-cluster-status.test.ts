import type { Admin, Client } from '@weir/protocol';
import { type RunningBroker, startBroker } from '@weir/test-broker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectExitCode, weir } from './cli-runner';
import { clientSession } from './internal-fixtures';

/**
 * `weir cluster status` against a real standalone broker: one broker leads every partition of
 * every topic, so everything is healthy and the exit status is 0; `--json` says the same as one
 * document, and a bad flag is a usage error.
 */
describe('weir cluster status on a standalone broker', () => {
  let running: RunningBroker;
  let data: { client: Client; admin: Admin };
  let flags: string[];

  beforeAll(async () => {
    running = await startBroker({ topics: { autoCreateEnable: false } });
    data = clientSession(running);
    await data.admin.createTopics([
      { name: 'alpha', partitions: 3 },
      { name: 'beta', partitions: 2 },
    ]);
    flags = ['--internal', running.internalBootstrap, '--token', running.internalToken];
  });

  afterAll(async () => {
    await data?.client.close();
    await running?.dispose();
  });

  it('prints the cluster, the one broker leading every partition and the healthy line, exiting 0', async () => {
    const id = running.broker.services.cluster.localBrokerId;
    const topics = await data.admin.listTopics({ includeInternal: true });
    const partitions = (await data.admin.describeTopics(topics)).reduce(
      (sum, topic) => sum + topic.partitions.length,
      0,
    );
    const { stdout } = expectExitCode(await weir(['cluster', 'status', ...flags]), 0);
    expect(stdout).toMatch(/^cluster id: \S+\ncontroller: broker \d+\n/);
    const table = stdout.split('\n').slice(3);
    expect(table[0]).toMatch(/^ID\s+HOST:PORT\s+RACK\s+STATE\s+CONTROLLER\s+LEADS\s+FOLLOWS$/);
    expect(table[1]).toMatch(
      new RegExp(`^${id}\\s+127\\.0\\.0\\.1:\\d+\\s+-\\s+live\\s+yes\\s+${partitions}\\s+0$`),
    );
    expect(stdout).toContain(
      `healthy: ${partitions} partitions of ${topics.length} topics checked on 1 broker\n`,
    );
  });

  it('prints the same as one JSON document with --json', async () => {
    const { stdout } = expectExitCode(await weir(['cluster', 'status', '--json', ...flags]), 0);
    const status = JSON.parse(stdout);
    expect(status).toMatchObject({
      healthy: true,
      partitions: [],
      unansweredBrokers: [],
      answeredBrokers: [running.broker.services.cluster.localBrokerId],
    });
    expect(status.brokers).toHaveLength(1);
    expect(status.brokers[0]).toMatchObject({ state: 'live', controller: true, follows: 0 });
  });

  it('exits 2 for a usage error', async () => {
    expectExitCode(await weir(['cluster', 'status', '--timeout', 'soon', ...flags]), 2);
    expectExitCode(await weir(['cluster', 'status', '--internal', 'nowhere', '--token', 't']), 2);
  });
});
