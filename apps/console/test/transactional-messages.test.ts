import { Client, TransactionalProducer } from '@weir/protocol';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { handleRestRequest } from '../src/server/api/http';
import { openApiDocument } from '../src/server/api/openapi';
import { type GatewayFixture, startGateway } from './gateway-fixture';

/*
 * The message browser's transaction marks and read_committed view over REST against a real
 * broker: a committed, an aborted and a still-open transaction written by the SDK's transactional
 * producer, browsed with `isolation` unset, read_uncommitted and read_committed.
 */

vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 });

const TOPIC = 'txn-browse';
let gateway: GatewayFixture;
let client: Client;
let open: TransactionalProducer;

async function transaction(transactionalId: string, values: string[], end: 'commit' | 'abort' | 'leave') {
  const producer = new TransactionalProducer(client, { transactionalId, transactionTimeoutMs: 600_000 });
  await producer.initTransactions();
  producer.beginTransaction();
  await producer.send({ topic: TOPIC, messages: values.map((value) => ({ value })) });
  if (end === 'leave') return producer;
  if (end === 'commit') await producer.commitTransaction();
  else await producer.abortTransaction();
  await producer.close();
  return undefined;
}

beforeAll(async () => {
  gateway = await startGateway();
  client = new Client({ bootstrapServers: [gateway.broker.bootstrap] });
  await gateway.caller.topics.create({ name: TOPIC, partitions: 1 });
  await gateway.caller.messages.produce({ topic: TOPIC, value: { encoding: 'utf8', data: 'plain' } });
  await transaction('browse-committed', ['committed'], 'commit');
  await transaction('browse-aborted', ['aborted'], 'abort');
  open = (await transaction('browse-open', ['open'], 'leave'))!;
});
afterAll(async () => {
  await open?.close();
  await client?.close();
  await gateway?.dispose();
});

function rest(path: string): Promise<Response> {
  return handleRestRequest(new Request(`http://console.test/api/v1${path}`), gateway.services);
}

interface Row {
  offset: string;
  value: { text: string } | null;
  transaction: string;
  transactional: boolean;
  control: boolean;
  producerEpoch: number;
}

async function rows(query: string): Promise<Row[]> {
  const response = await rest(`/topics/${TOPIC}/messages?${query}`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { rows: Row[] }).rows;
}

const marks = (found: Row[]) => found.map((row) => [row.value?.text, row.transaction]);

describe('GET /topics/{topic}/messages and transactions', () => {
  it('marks every record by default and with isolation=read_uncommitted, and shows no markers', async () => {
    const expected = [
      ['plain', 'none'],
      ['committed', 'committed'],
      ['aborted', 'aborted'],
      ['open', 'open'],
    ];
    const byDefault = await rows('pageSize=50');
    expect(marks(byDefault)).toEqual(expected);
    expect(marks(await rows('isolation=read_uncommitted'))).toEqual(expected);
    expect(byDefault.some((row) => row.control)).toBe(false);
    const aborted = byDefault.find((row) => row.value?.text === 'aborted')!;
    expect(aborted).toMatchObject({ transactional: true });
    expect(aborted.producerEpoch).toBeGreaterThanOrEqual(0);
  });

  it('with isolation=read_committed hides the aborted record and stops before the open one', async () => {
    expect(marks(await rows('isolation=read_committed'))).toEqual([
      ['plain', 'none'],
      ['committed', 'committed'],
    ]);
    // The page's range ends at the last stable offset: the open record's offset.
    const response = await rest(`/topics/${TOPIC}/messages?isolation=read_committed`);
    const page = (await response.json()) as { partitions: { endOffset: string; done: boolean }[] };
    const openOffset = (await rows('')).find((row) => row.value?.text === 'open')!.offset;
    expect(page.partitions).toMatchObject([{ endOffset: openOffset, done: true }]);
    // A filter that matches only the aborted record finds nothing in the committed view.
    expect(
      await rows(`isolation=read_committed&filters=${encodeURIComponent('value:equals:aborted')}`),
    ).toEqual([]);
  });

  it('refuses another isolation with 400 naming the field', async () => {
    const response = await rest(`/topics/${TOPIC}/messages?isolation=read_dirty`);
    expect(response.status).toBe(400);
    expect(JSON.stringify(await response.json())).toContain('isolation');
  });

  it('documents the parameter and the field in the OpenAPI schema', () => {
    const browse = openApiDocument().paths?.['/topics/{topic}/messages']?.get;
    const names = browse?.parameters?.map((parameter) => ('name' in parameter ? parameter.name : null));
    expect(names).toContain('isolation');
    const document = JSON.stringify(openApiDocument());
    expect(document).toContain('"transaction"');
    expect(document).toContain('read_committed');
  });
});
