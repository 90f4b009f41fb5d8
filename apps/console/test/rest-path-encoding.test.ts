import { Client, TransactionalProducer } from '@weir/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { handleRestRequest } from '../src/server/api/http';
import { type GatewayFixture, startGateway } from './gateway-fixture';

/*
 * REST path parameters are percent-decoded (issue #15): ids with spaces, `<`, `%` or `/` can be
 * addressed, and a malformed escape is a 400 that names the parameter.
 */

const ORIGIN = 'http://127.0.0.1:3000';
/** Each is a transactional id and a consumer group (its offsets committed in the transaction). */
const IDS = ['a b', 'x<y>', '50%off', 'p/q'];
const TOPIC = 'encoded-ids';

let gateway: GatewayFixture;
let client: Client;

beforeAll(async () => {
  gateway = await startGateway();
  client = new Client({ bootstrapServers: [gateway.broker.bootstrap], clientId: 'path-encoding-test' });
  await gateway.caller.topics.create({ name: TOPIC, partitions: 1 });
  for (const id of IDS) {
    const producer = new TransactionalProducer(client, { transactionalId: id });
    await producer.initTransactions();
    producer.beginTransaction();
    await producer.send({ topic: TOPIC, messages: [{ value: id }] });
    await producer.sendOffsets(id, [{ topic: TOPIC, partition: 0, offset: 0n }]);
    await producer.commitTransaction();
    await producer.close();
  }
}, 60_000);

afterAll(async () => {
  await client?.close();
  await gateway?.dispose();
});

function rest(method: string, path: string): Promise<Response> {
  return handleRestRequest(
    new Request(`${ORIGIN}/api/v1${path}`, { method, headers: { 'x-weir-csrf': '1' } }),
    gateway.services,
  );
}

describe('percent-encoded path parameters', () => {
  it('looks groups and transactional ids up by their decoded names', async () => {
    for (const id of IDS) {
      const group = await rest('GET', `/groups/${encodeURIComponent(id)}`);
      expect(group.status, id).toBe(200);
      expect(((await group.json()) as { groupId: string }).groupId).toBe(id);
      const transaction = await rest('GET', `/transactions/${encodeURIComponent(id)}`);
      expect(transaction.status, id).toBe(200);
      expect(((await transaction.json()) as { transactionalId: string }).transactionalId).toBe(id);
    }
    // A space as a browser or curl writes it.
    expect((await rest('GET', '/groups/a%20b')).status).toBe(200);
  });

  it('decodes a topic name and a numeric parameter alike', async () => {
    const record = await rest('GET', `/topics/${encodeURIComponent(TOPIC)}/partitions/%30/records/0`);
    expect(record.status).toBe(200);
    expect(await record.json()).toMatchObject({
      topic: TOPIC,
      record: { offset: '0', value: { text: 'a b' } },
    });
  });

  it('answers a malformed escape with 400 naming the parameter', async () => {
    for (const [path, parameter] of [
      ['/groups/50%off', 'groupId'],
      ['/transactions/%E0%A4%A', 'transactionalId'],
      [`/topics/${TOPIC}/partitions/%zz/records/0`, 'partition'],
    ] as const) {
      const response = await rest('GET', path);
      expect(response.status, path).toBe(400);
      const body = (await response.json()) as { issues: { path: string[]; message: string }[] };
      expect(body.issues[0]?.path, path).toEqual([parameter]);
      expect(body.issues[0]?.message, path).toContain(parameter);
    }
  });

  it('deletes the group it names', async () => {
    expect((await rest('DELETE', '/groups/a%20b')).status).toBe(200);
    expect((await rest('GET', '/groups/a%20b')).status).toBe(404);
    expect((await rest('GET', `/groups/${encodeURIComponent('x<y>')}`)).status).toBe(200);
  });
});
