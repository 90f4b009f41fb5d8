import { describe, expect, it } from 'vitest';
import { expectExitCode, weir } from '../cli-runner';
import { pollUntil } from '../group-fixtures';
import { createReplicatedTopics, startReplicatedCluster } from './replicated-cluster';

const TOPICS = ['status-a', 'status-b'];
const PARTITIONS = 2;

/** The partition lines of the text output: `<topic>-<n>  <states>  <reasons>`. */
function partitionLines(stdout: string): string[] {
  return stdout.split('\n').filter((line) => TOPICS.some((topic) => line.startsWith(`${topic}-`)));
}

/**
 * `weir cluster status` against three broker processes: healthy at first (exit 0); once a broker
 * is killed with SIGKILL and its session expires, every partition names that broker's ended
 * session (exit 1); after it is restarted and leadership is moved back to the preferred replicas,
 * healthy again.
 */
describe('weir cluster status on a cluster', { timeout: 240_000 }, () => {
  it('is healthy, then names a killed broker for its partitions, then is healthy after its return', async () => {
    const cluster = await startReplicatedCluster();
    await createReplicatedTopics(cluster, TOPICS, PARTITIONS);
    // The CLI talks to broker 1; the victim is another broker, one that leads partitions if any
    // does, so its partitions lose their leader and come back led by a non-preferred replica.
    const through = cluster.broker(1);
    const flags = ['--internal', through.internalAddress, '--token', cluster.internalToken];
    const status = () => weir(['cluster', 'status', ...flags]);

    // Followers join the ISR with their first fetches, so health may take a moment to settle.
    const healthy = await pollUntil(
      async () => {
        const result = await status();
        return result.code === 0 ? result : undefined;
      },
      'a healthy cluster',
      { timeoutMs: 60_000 },
    );
    expect(healthy.stdout).toMatch(/^cluster id: \S+\ncontroller: broker [123]\n/);
    expect(healthy.stdout).toMatch(/^ID\s+HOST:PORT\s+RACK\s+STATE\s+CONTROLLER\s+LEADS\s+FOLLOWS$/m);
    for (const id of [1, 2, 3]) {
      expect(healthy.stdout).toMatch(new RegExp(`^${id}\\s+127\\.0\\.0\\.1:\\d+\\s+-\\s+live\\s`, 'm'));
    }
    expect(healthy.stdout).toMatch(/^healthy: \d+ partitions of \d+ topics checked on 3 brokers$/m);
    const json = JSON.parse(expectExitCode(await weir(['cluster', 'status', '--json', ...flags]), 0).stdout);
    expect(json).toMatchObject({ healthy: true, answeredBrokers: [1, 2, 3], partitions: [] });
    expect(json.brokers.filter((broker: { controller: boolean }) => broker.controller)).toHaveLength(1);
    const others = (json.brokers as { id: number; leads: number }[]).filter((broker) => broker.id !== 1);
    const victim = cluster.broker(others.sort((left, right) => right.leads - left.leads)[0]!.id);

    await victim.kill9();
    const ended = `broker ${victim.nodeId}'s session ended`;
    const degraded = await pollUntil(
      async () => {
        const result = await status();
        const lines = partitionLines(result.stdout);
        return result.code === 1 &&
          lines.length === TOPICS.length * PARTITIONS &&
          lines.every((line) => line.includes(ended))
          ? { result, lines }
          : undefined;
      },
      `every partition to name ${ended}`,
      { timeoutMs: 60_000 },
    );
    expect(degraded.result.stdout).toMatch(/^PARTITION\s+STATE\s+REASON$/m);
    expect(degraded.result.stdout).toMatch(
      new RegExp(
        `^needs attention: ${TOPICS.length * PARTITIONS} of \\d+ partitions of \\d+ topics checked on 2 brokers$`,
        'm',
      ),
    );
    // Each partition lost one of its three replicas: at min ISR 2 and under-replicated.
    for (const line of degraded.lines)
      expect(line).toMatch(/\sat-min-isr,under-replicated(,non-preferred-leader)?\s/);
    // The killed broker is listed as gone, with the replicas it still holds in the metadata.
    expect(degraded.result.stdout).toMatch(new RegExp(`^${victim.nodeId}\\s+-\\s+-\\s+gone\\s`, 'm'));

    await victim.restart();
    // Once its replicas caught up, what is left at most is leadership off the preferred replicas,
    // which a preferred election (or the controller's own rebalance) moves back.
    await pollUntil(
      async () => {
        const result = await status();
        if (result.code === 0) return result;
        const lines = partitionLines(result.stdout);
        return result.code === 1 &&
          lines.length > 0 &&
          lines.every((line) => /\snon-preferred-leader\s/.test(line) && line.includes('preferred election'))
          ? result
          : undefined;
      },
      'the restarted broker back in every ISR',
      { timeoutMs: 90_000 },
    );
    expectExitCode(await weir(['partition', 'elect-leaders', '--bootstrap-server', cluster.bootstrap]), 0);
    const again = await pollUntil(
      async () => {
        const result = await status();
        return result.code === 0 ? result : undefined;
      },
      'a healthy cluster again',
      { timeoutMs: 60_000 },
    );
    expect(again.stdout).toMatch(/^healthy: \d+ partitions of \d+ topics checked on 3 brokers$/m);
  });
});
