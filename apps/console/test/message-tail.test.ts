import { isTrackedEnvelope } from '@trpc/server';
import type { Client } from '@weir/protocol';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TailEvent, TailInput } from '../src/server/api/schemas/message-tail';
import { DEFAULT_SEARCH_LIMITS } from '../src/server/services/message-search';
import { DEFAULT_TAIL_LIMITS, streamTail, type TailLimits } from '../src/server/services/message-tail';
import { type GatewayFixture, startGateway, until } from './gateway-fixture';

vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 });

let gateway: GatewayFixture;

beforeAll(async () => {
  gateway = await startGateway();
  for (const name of [
    'tail-filters',
    'tail-abort',
    'tail-rate',
    'tail-cap',
    'tail-resume',
    'tail-reconnect',
  ]) {
    await gateway.caller.topics.create({ name, partitions: 2 });
  }
  // Records from before the tail starts: a tail begins at the end, so none of these may show.
  await gateway.clients.producer('none').send({
    topic: 'tail-filters',
    messages: [
      { partition: 0, value: Buffer.from('keep-old') },
      { partition: 1, value: Buffer.from('keep-old') },
    ],
  });
});
afterAll(async () => {
  await gateway?.dispose();
});

/** A tail on the fixture's broker, with the clients it opened, and a way to stop it. */
function openTail(input: Partial<TailInput> & { topic: string }, limits: Partial<TailLimits> = {}) {
  const controller = new AbortController();
  const clients: Client[] = [];
  const events = streamTail(
    {
      admin: gateway.clients.admin(),
      internal: gateway.clients.internal(),
      now: Date.now,
      openClient: () => {
        const client = gateway.clients.dedicatedClient();
        clients.push(client);
        return client;
      },
    },
    { maxValueBytes: 1024, decode: 'none', ...input },
    { ...DEFAULT_TAIL_LIMITS, ...limits },
    DEFAULT_SEARCH_LIMITS,
    controller.signal,
  );
  return { events, clients, abort: () => controller.abort() };
}

/** Reads events until `stop` says so; the tail keeps running. */
async function readUntil(
  events: AsyncGenerator<TailEvent>,
  stop: (seen: TailEvent[]) => boolean,
): Promise<TailEvent[]> {
  const seen: TailEvent[] = [];
  while (!stop(seen)) {
    const next = await events.next();
    if (next.done) throw new Error('the tail ended early');
    seen.push(next.value);
  }
  return seen;
}

const rowsOf = (events: TailEvent[]) => events.flatMap((event) => (event.type === 'rows' ? event.rows : []));
const started = (seen: TailEvent[]) => seen.some((event) => event.type === 'started');

describe('messages.tail', () => {
  it('streams only records appended after it started that pass the filters', async () => {
    const tail = openTail({ topic: 'tail-filters', filters: ['value:contains:keep'] });
    await readUntil(tail.events, started);
    await gateway.clients.producer('none').send({
      topic: 'tail-filters',
      messages: [
        { partition: 0, value: Buffer.from('drop-1') },
        { partition: 0, value: Buffer.from('keep-1') },
      ],
    });
    await gateway.clients
      .producer('none')
      .send({ topic: 'tail-filters', messages: [{ partition: 1, value: Buffer.from('keep-2') }] });
    // Each round ends with stats: read up to the stats after the second row.
    const seen = await readUntil(
      tail.events,
      (events) => rowsOf(events).length >= 2 && events.at(-1)?.type === 'stats',
    );
    expect(
      rowsOf(seen)
        .map((row) => `${row.partition}:${row.value?.text}`)
        .sort(),
    ).toEqual(['0:keep-1', '1:keep-2']);
    expect(seen.at(-1)).toMatchObject({ arrivedRecords: 3, sentRows: 2, skippedRecords: 0 });
    tail.abort();
    expect((await tail.events.next()).done).toBe(true);
  });

  it('ends a parked Fetch at once when the client unsubscribes, and closes its client', async () => {
    // A Fetch that would wait 20 s at the broker: only the abort can end the tail sooner.
    const tail = openTail({ topic: 'tail-abort' }, { waitMs: 20_000 });
    await readUntil(tail.events, started);
    const next = tail.events.next();
    // The tail is now in its long-poll: wait until its Fetch connection is up, so the Fetch is sent.
    await until(() => {
      const client = tail.clients[0];
      const leaderId = client?.cachedTopic('tail-abort')?.partitions[0]?.leaderId;
      return leaderId !== undefined && client?.readyConnection(leaderId, 'fetch') !== undefined;
    }, 'the tail to open its Fetch connection');
    const abortedAtMs = Date.now();
    tail.abort();
    expect((await next).done).toBe(true);
    expect(Date.now() - abortedAtMs).toBeLessThan(5_000);
    expect(tail.clients[0]!.closed).toBe(true);
  });

  it('sends at most the rate cap, the newest records, and counts the older ones it skipped to stay live', async () => {
    const tail = openTail({ topic: 'tail-rate' }, { maxRowsPerSecond: 5 });
    await readUntil(tail.events, started);
    // One send to one partition is one batch, appended at once: the first round sees all 20.
    await gateway.clients.producer('none').send({
      topic: 'tail-rate',
      messages: Array.from({ length: 20 }, (_, index) => ({ partition: 0, value: Buffer.from(`r${index}`) })),
    });
    const seen = await readUntil(tail.events, (events) => events.some((event) => event.type === 'stats'));
    expect(rowsOf(seen).map((row) => row.value?.text)).toEqual(['r15', 'r16', 'r17', 'r18', 'r19']);
    expect(seen.at(-1)).toMatchObject({ type: 'stats', arrivedRecords: 20, sentRows: 5, skippedRecords: 15 });
    tail.abort();
    await tail.events.return(undefined);
  });

  it('ends at the row cap with the newest rows and the cursor at the end it saw', async () => {
    const tail = openTail({ topic: 'tail-cap' }, { maxRows: 3 });
    await readUntil(tail.events, started);
    await gateway.clients.producer('none').send({
      topic: 'tail-cap',
      messages: Array.from({ length: 5 }, (_, index) => ({ partition: 1, value: Buffer.from(`c${index}`) })),
    });
    const seen = await readUntil(tail.events, (events) => events.some((event) => event.type === 'ended'));
    expect(rowsOf(seen).map((row) => row.value?.text)).toEqual(['c2', 'c3', 'c4']);
    expect(seen.at(-1)).toMatchObject({
      type: 'ended',
      reason: 'row-cap',
      cursor: '0:0,1:5',
      sentRows: 3,
      skippedRecords: 2,
    });
    expect((await tail.events.next()).done).toBe(true);
    expect(tail.clients[0]!.closed).toBe(true);
  });

  it('resumes from a cursor, showing what was appended while it was paused', async () => {
    const first = openTail({ topic: 'tail-resume' });
    const [startedEvent] = await readUntil(first.events, started);
    first.abort();
    expect((await first.events.next()).done).toBe(true);
    const cursor = startedEvent?.type === 'started' ? startedEvent.cursor : '';
    expect(cursor).toBe('0:0,1:0');
    await gateway.clients
      .producer('none')
      .send({ topic: 'tail-resume', messages: [{ partition: 1, value: Buffer.from('while-paused') }] });
    const second = openTail({ topic: 'tail-resume', cursor });
    const seen = await readUntil(second.events, (events) => rowsOf(events).length >= 1);
    expect(rowsOf(seen).map((row) => row.value?.text)).toEqual(['while-paused']);
    expect(seen.find((event) => event.type === 'rows')).toMatchObject({ cursor: '0:0,1:1' });
    second.abort();
    await second.events.return(undefined);
  });

  it("tracks every event by its cursor, and a reconnect's lastEventId resumes there as tRPC's SSE client does", async () => {
    const input = { topic: 'tail-reconnect', maxValueBytes: 1024, decode: 'none' as const };
    const first = (await gateway.caller.messages.tail(input))[Symbol.asyncIterator]();
    const started = trackedEvent((await first.next()).value);
    expect(started.event).toMatchObject({ type: 'started', cursor: '0:0,1:0' });
    expect(started.id).toBe(started.event.cursor);
    // The connection drops (the iteration ends, as when the SSE response closes); records arrive
    // before the client reconnects.
    await first.return?.(undefined);
    await gateway.clients.producer('none').send({
      topic: 'tail-reconnect',
      messages: [
        { partition: 0, value: Buffer.from('during-the-drop') },
        { partition: 1, value: Buffer.from('also-during-the-drop') },
      ],
    });
    // `cursor` is what the page asked for first; `lastEventId` wins, as after a reconnect.
    const second = await gateway.caller.messages.tail({
      ...input,
      cursor: '0:9,1:9',
      lastEventId: started.id,
    });
    const seen: TailEvent[] = [];
    for await (const value of second) {
      const { id, event } = trackedEvent(value);
      expect(id).toBe(event.cursor);
      seen.push(event);
      if (rowsOf(seen).length >= 2) break;
    }
    expect(
      rowsOf(seen)
        .map((row) => row.value?.text)
        .sort(),
    ).toEqual(['also-during-the-drop', 'during-the-drop']);
  });

  it('refuses a tail of no partitions, naming the field', async () => {
    await expect(
      gateway.caller.messages.tail({
        topic: 'tail-reconnect',
        maxValueBytes: 1024,
        decode: 'none',
        partitions: [],
      }),
    ).rejects.toMatchObject({ code: 'BAD_REQUEST', message: expect.stringContaining('partitions') });
  });
});

/** A tail event as the router sends it: tracked, with its id. */
function trackedEvent(value: unknown): { id: string; event: TailEvent } {
  expect(isTrackedEnvelope(value)).toBe(true);
  const [id, event] = value as unknown as [string, TailEvent];
  return { id, event };
}
