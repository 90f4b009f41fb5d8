import { Client, GroupConsumer } from '@weir/protocol';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { handleRestRequest } from '../src/server/api/http';
import { openApiDocument } from '../src/server/api/openapi';
import { type GatewayFixture, startGateway, until } from './gateway-fixture';

vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 });

const ORIGIN = 'http://console.test';
const TOPIC = 'history-orders';
const GROUP = 'history-billing';

let gateway: GatewayFixture;
let client: Client;
let member: GroupConsumer;

function rest(path: string): Promise<Response> {
  return handleRestRequest(new Request(`${ORIGIN}/api/v1${path}`), gateway.services);
}

const newest = (values: readonly (number | null)[]) => values.filter((value) => value !== null).at(-1);

beforeAll(async () => {
  // Sampled five times a second, so the history has samples in test time.
  gateway = await startGateway({ stats: { history: { sampleIntervalMs: 200 } } });
  client = new Client({ bootstrapServers: [gateway.broker.bootstrap], clientId: 'history-rest' });
  await gateway.caller.topics.create({ name: TOPIC, partitions: 2 });
  for (let index = 0; index < 12; index++) {
    await gateway.caller.messages.produce({
      topic: TOPIC,
      partition: index % 2,
      value: { encoding: 'utf8', data: `order-${index}` },
    });
  }
  member = new GroupConsumer(client, {
    groupId: GROUP,
    sessionTimeoutMs: 6000,
    heartbeatIntervalMs: 100,
    maxWaitMs: 100,
    autoCommit: false,
    autoOffsetReset: 'earliest',
  });
  member.subscribe([TOPIC]);
  await until(() => member.state === 'running' && member.assignment().length === 2, 'the member is assigned');
  // 6 records per partition; committed 2 and 1: lag 4 + 5.
  await member.commit([
    { topic: TOPIC, partition: 0, offset: 2n },
    { topic: TOPIC, partition: 1, offset: 1n },
  ]);
});

afterAll(async () => {
  await member?.close();
  await client?.close();
  await gateway?.dispose();
});

describe('GET /api/v1/groups/{groupId}/lag-history', () => {
  it('answers the sampled lag per partition and in total, with the time-to-zero estimate', async () => {
    let body: {
      since: string;
      resolutionMs: number;
      sampleIntervalMs: number;
      totalLag: (number | null)[];
      partitions: { topic: string; partition: number; lag: (number | null)[] }[];
      timeToZero: { trend: string; totalLag: number | null; secondsToZero: number | null };
    } = await (await rest(`/groups/${GROUP}/lag-history?since=15m`)).json();
    await until(async () => {
      const response = await rest(`/groups/${GROUP}/lag-history?since=15m`);
      expect(response.status).toBe(200);
      body = await response.json();
      return newest(body.totalLag) === 9;
    }, 'a sample with the committed lag');
    expect(body.since).toBe('15m');
    expect(body.sampleIntervalMs).toBe(200);
    expect(body.resolutionMs).toBe(200);
    expect(body.partitions.map(({ partition, lag }) => [partition, newest(lag)])).toEqual([
      [0, 4],
      [1, 5],
    ]);
    // Nothing was consumed since the commit: the lag does not go down.
    expect(body.timeToZero.totalLag).toBe(9);
    expect(['not-catching-up', 'unknown']).toContain(body.timeToZero.trend);
    expect(body.timeToZero.secondsToZero).toBeNull();

    const totalsOnly = await (await rest(`/groups/${GROUP}/lag-history?partitions=false`)).json();
    expect(totalsOnly.since).toBe('1h');
    expect(totalsOnly.partitions).toEqual([]);

    const day = await (await rest(`/groups/${GROUP}/lag-history?since=24h`)).json();
    expect(day.resolutionMs).toBe(60_000);
    expect(newest(day.totalLag)).toBe(9);
  });

  it('refuses a bad or unknown parameter with 400 naming it', async () => {
    const badRange = await rest(`/groups/${GROUP}/lag-history?since=2d`);
    expect(badRange.status).toBe(400);
    expect(JSON.stringify(await badRange.json())).toContain('since');

    const unknown = await rest(`/groups/${GROUP}/lag-history?range=1h`);
    expect(unknown.status).toBe(400);
    const [issue] = (await unknown.json()).issues;
    expect(issue.message).toContain('unknown query parameter "range"');
    expect(issue.message).toContain('since');

    const badFlag = await rest(`/groups/${GROUP}/lag-history?partitions=maybe`);
    expect(badFlag.status).toBe(400);
    expect(JSON.stringify(await badFlag.json())).toContain('partitions');
  });

  it('answers a group without history with empty buckets, not an error', async () => {
    const response = await rest('/groups/no-such-group/lag-history?since=15m');
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.totalLag.every((value: number | null) => value === null)).toBe(true);
    expect(body.timeToZero.trend).toBe('unknown');
  });
});

describe('GET /api/v1/topics/{topic}/throughput-history', () => {
  it('answers records produced per second, and refuses an unknown parameter', async () => {
    await until(async () => {
      const body = await (await rest(`/topics/${TOPIC}/throughput-history?since=15m`)).json();
      return (body.recordsInPerSecond as (number | null)[]).some((rate) => rate !== null && rate > 0);
    }, 'a sample of the produced records');
    const unknown = await rest(`/topics/${TOPIC}/throughput-history?sinceMs=0`);
    expect(unknown.status).toBe(400);
    expect((await unknown.json()).issues[0].message).toContain('unknown query parameter "sinceMs"');
    const badTopic = await rest('/topics/bad%20name/throughput-history');
    expect(badTopic.status).toBe(400);
  });

  it('is in the OpenAPI document with its parameters', () => {
    const paths = openApiDocument().paths ?? {};
    const lag = paths['/groups/{groupId}/lag-history']?.get;
    const throughput = paths['/topics/{topic}/throughput-history']?.get;
    expect(lag?.parameters?.map((parameter) => ('name' in parameter ? parameter.name : null))).toEqual(
      expect.arrayContaining(['groupId', 'since', 'partitions']),
    );
    expect(throughput?.description).toContain('replication not counted');
  });
});

describe('the lists’ sparklines (tRPC)', () => {
  it('answer each named group’s total lag and each topic’s produce rate, in at most 60 points', async () => {
    const lag = await gateway.caller.groups.lagTrends({ groupIds: [GROUP, 'no-such-group'] });
    expect(lag.trends[GROUP]!.length).toBeLessThanOrEqual(60);
    expect(newest(lag.trends[GROUP]!)).toBe(9);
    expect(lag.trends['no-such-group']!.every((value) => value === null)).toBe(true);
    const throughput = await gateway.caller.topics.throughputTrends({ topics: [TOPIC] });
    expect(throughput.trends[TOPIC]!.some((rate) => rate !== null && rate > 0)).toBe(true);
  });

  it('keep the peak once the group caught up, from every sample of the last hour', async () => {
    await member.commit([
      { topic: TOPIC, partition: 0, offset: 6n },
      { topic: TOPIC, partition: 1, offset: 6n },
    ]);
    await until(async () => {
      const history = await gateway.caller.groups.lagHistory({
        groupId: GROUP,
        since: '15m',
        partitions: false,
      });
      return newest(history.totalLag) === 0;
    }, 'a sample without lag');
    // The last hour is the fine tier's: every sample of it, the 9s before the commit included.
    const hour = await gateway.caller.groups.lagHistory({ groupId: GROUP, since: '1h', partitions: false });
    expect(hour.resolutionMs).toBe(200);
    expect(hour.totalLag).toContain(9);
    const lag = await gateway.caller.groups.lagTrends({ groupIds: [GROUP] });
    const sampled = lag.trends[GROUP]!.filter((value) => value !== null);
    expect(Math.max(...sampled)).toBe(9);
  });
});
