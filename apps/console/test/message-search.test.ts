import { describe, expect, it } from 'vitest';
import type { BrowseInput, MessageRow, SearchEvent } from '../src/server/api/schemas/messages';
import {
  DEFAULT_SEARCH_LIMITS,
  type SearchDeps,
  type SearchLimits,
} from '../src/server/services/message-search';
import { browseMessages, streamSearch } from '../src/server/services/messages';
import { FakeTopic, threePartitionTopic } from './fake-scan';

const limits: SearchLimits = { ...DEFAULT_SEARCH_LIMITS, stepRecords: 5 };

function deps(topic: FakeTopic, now: () => number = Date.now): SearchDeps {
  return { admin: topic, internal: topic, now };
}

function input(overrides: Partial<BrowseInput>): BrowseInput {
  return { topic: 't', decode: 'none', start: 'beginning', pageSize: 50, maxValueBytes: 1024, ...overrides };
}

const idOf = (row: MessageRow) => `${row.partition}:${row.offset}`;

async function allPages(
  topic: FakeTopic,
  base: Partial<BrowseInput>,
  pageSize: number,
  pageLimits: SearchLimits = limits,
): Promise<MessageRow[][]> {
  const pages: MessageRow[][] = [];
  let cursor: string | undefined;
  for (let page = 0; page < 1000; page++) {
    const result = await browseMessages(
      deps(topic),
      input({ ...base, pageSize, ...(cursor ? { cursor } : {}) }),
      pageLimits,
    );
    if (result.rows.length > 0) pages.push(result.rows);
    if (result.done) return pages;
    cursor = result.nextCursor;
  }
  throw new Error('paging did not finish');
}

describe('message search paging', () => {
  it('pages across 3 partitions so that concatenated pages equal one big read', async () => {
    const topic = threePartitionTopic(40);
    const [whole] = await allPages(topic, {}, 500);
    expect(whole).toHaveLength(120);
    for (const pageSize of [1, 7, 13]) {
      const pages = await allPages(topic, {}, pageSize);
      expect(pages.slice(0, -1).every((page) => page.length === pageSize)).toBe(true);
      expect(pages.flat().map(idOf)).toEqual(whole!.map(idOf));
    }
  });

  it('pages exactly with a filter, leaving no gaps or duplicates', async () => {
    const topic = threePartitionTopic(60);
    const filters = ['value:contains:-x'];
    const [whole] = await allPages(topic, { filters }, 500);
    expect(whole).toHaveLength(60);
    expect(whole!.every((row) => row.value?.text?.endsWith('-x'))).toBe(true);
    const paged = (await allPages(topic, { filters }, 4)).flat().map(idOf);
    expect(paged).toEqual(whole!.map(idOf));
    expect(new Set(paged).size).toBe(paged.length);
  });

  it('stays exact when the work budget ends a page early', async () => {
    const topic = threePartitionTopic(60);
    const filters = ['value:contains:-x'];
    const [whole] = await allPages(topic, { filters }, 500);
    const tight = { ...limits, browse: { totalMs: 60_000, totalRecords: 12 } };
    const first = await browseMessages(deps(topic), input({ filters, pageSize: 50 }), tight);
    expect(first.budgetExhausted).toBe(true);
    expect(first.scannedRecords).toBeLessThanOrEqual(15);
    const paged = (await allPages(topic, { filters }, 50, tight)).flat().map(idOf);
    expect(paged).toEqual(whole!.map(idOf));
  });

  it('makes progress when one partition would use up every budget', async () => {
    const record = (partition: number, index: number, value: string) => ({
      partition,
      offset: BigInt(index),
      timestampMs: BigInt(index),
      value,
    });
    // Partition 0 has one early match then a long run of misses; partition 1 matches only late.
    const topic = new FakeTopic([
      Array.from({ length: 100 }, (_, index) => record(0, index, index === 0 ? 'hit' : 'miss')),
      Array.from({ length: 50 }, (_, index) => record(1, index, index === 40 ? 'hit' : 'miss')),
    ]);
    const tight = { ...limits, browse: { totalMs: 60_000, totalRecords: 12 } };
    const rows = (await allPages(topic, { filters: ['value:equals:hit'] }, 5, tight)).flat().map(idOf);
    expect(rows).toEqual(['0:0', '1:40']);
  });

  it('orders rows by timestamp, then partition, then offset, where each partition allows it', async () => {
    const topic = threePartitionTopic(3);
    const [rows] = await allPages(topic, {}, 100);
    // Within a partition the order stays the offset order even where timestamps go back.
    for (const partition of [0, 1, 2]) {
      const offsets = rows!.filter((row) => row.partition === partition).map((row) => Number(row.offset));
      expect(offsets).toEqual([0, 1, 2]);
    }
  });

  it('starts at newest-N with an even split and at a timestamp', async () => {
    const topic = threePartitionTopic(40);
    const newest = await browseMessages(deps(topic), input({ start: 'newest', newestCount: 7 }), limits);
    // ceil(7 / 3) = 3 per partition, read down from the end (the cursor is the upper bound).
    expect(newest.cursor).toBe('0:40,1:40,2:40');
    expect(newest.rows.map(idOf).sort()).toEqual(
      ['0:37', '0:38', '0:39', '1:37', '1:38', '1:39', '2:37', '2:38', '2:39'].sort(),
    );
    expect(newest.done).toBe(true);
    const late = await browseMessages(
      deps(topic),
      input({ start: 'timestamp', startTimestampMs: 1_300 }),
      limits,
    );
    expect(late.rows.every((row) => row.timestampMs >= 1_290)).toBe(true);
  });

  it('puts the newest record first on page 1 and pages newest N exactly, newest first', async () => {
    const topic = threePartitionTopic(40);
    const base: Partial<BrowseInput> = { start: 'newest', newestCount: 45 };
    const [whole] = await allPages(topic, base, 500);
    // ceil(45 / 3) = 15 per partition: offsets 25-39 of each.
    expect(whole).toHaveLength(45);
    expect(whole!.every((row) => Number(row.offset) >= 25)).toBe(true);
    const newestFirst = [...whole!].sort(
      (left, right) =>
        right.timestampMs - left.timestampMs ||
        right.partition - left.partition ||
        Number(right.offset) - Number(left.offset),
    );
    expect(whole![0]).toEqual(newestFirst[0]);
    // Within a partition the order is descending offsets, whatever the timestamps do.
    for (const partition of [0, 1, 2]) {
      const offsets = whole!.filter((row) => row.partition === partition).map((row) => Number(row.offset));
      expect(offsets).toEqual([...offsets].sort((left, right) => right - left));
    }
    for (const pageSize of [1, 7, 20]) {
      const pages = await allPages(topic, base, pageSize);
      expect(pages.slice(0, -1).every((page) => page.length === pageSize)).toBe(true);
      expect(pages.flat().map(idOf)).toEqual(whole!.map(idOf));
    }
  });

  it('pages newest N exactly with a sparse filter and a budget that ends pages early', async () => {
    const topic = threePartitionTopic(300);
    const base: Partial<BrowseInput> = { start: 'newest', newestCount: 600, filters: ['value:contains:-x'] };
    const [whole] = await allPages(topic, base, 1000);
    // Every third record of each partition's newest 200 matches.
    expect(whole!.length).toBeGreaterThan(190);
    expect(whole!.length).toBeLessThan(210);
    expect(whole!.every((row) => row.value?.text?.endsWith('-x') && Number(row.offset) >= 100)).toBe(true);
    const tight = { ...limits, browse: { totalMs: 60_000, totalRecords: 12 } };
    const paged = (await allPages(topic, base, 6, tight)).flat().map(idOf);
    expect(paged).toEqual(whole!.map(idOf));
    expect(new Set(paged).size).toBe(paged.length);
  });

  it('reads newest N across gaps in the offsets, as compaction leaves them', async () => {
    const topic = new FakeTopic([
      [0, 1, 5, 9, 10, 14].map((offset) => ({
        partition: 0,
        offset: BigInt(offset),
        timestampMs: BigInt(offset),
        value: `v${offset}`,
      })),
    ]);
    const pages = await allPages(topic, { start: 'newest', newestCount: 6 }, 2);
    // The window is the last 6 offsets, [9, 15): the records 9, 10 and 14.
    expect(pages.flat().map(idOf)).toEqual(['0:14', '0:10', '0:9']);
  });

  it('gives a 400-style error naming the missing start field', async () => {
    const topic = threePartitionTopic(1);
    await expect(browseMessages(deps(topic), input({ start: 'offset' }), limits)).rejects.toThrow(
      /startOffset/,
    );
  });
});

describe('message search streaming', () => {
  async function collect(events: AsyncGenerator<SearchEvent>): Promise<SearchEvent[]> {
    const all: SearchEvent[] = [];
    for await (const event of events) all.push(event);
    return all;
  }

  it('stops scanning on the broker once the client aborts', async () => {
    const topic = threePartitionTopic(200);
    const controller = new AbortController();
    topic.onScan = () => {
      if (topic.scanCalls === 3) controller.abort();
    };
    const events = await collect(
      streamSearch(
        deps(topic),
        { ...input({ filters: ['value:equals:none'] }), pageSize: 10 },
        limits,
        controller.signal,
      ),
    );
    expect(topic.scanCalls).toBe(3);
    const done = events.at(-1);
    expect(done).toMatchObject({ type: 'done', cancelled: true, done: false });
  });

  it('sends progress at most every progressIntervalMs and rows in batches', async () => {
    const topic = threePartitionTopic(300);
    let clockMs = 0;
    topic.onScan = () => {
      clockMs += 10;
    };
    const events = await collect(
      streamSearch(
        deps(topic, () => clockMs),
        { ...input({}), pageSize: 900 },
        { ...limits, progressIntervalMs: 250, rowBatchSize: 50 },
      ),
    );
    const progress = events.filter((event) => event.type === 'progress');
    const steps = topic.scanCalls;
    expect(steps).toBeGreaterThan(100);
    // One per 250 ms of a clock that moves 10 ms per step, plus the first and the final one.
    expect(progress.length).toBeLessThanOrEqual(Math.ceil((steps * 10) / 250) + 2);
    const rows = events.flatMap((event) => (event.type === 'rows' ? [event.rows.length] : []));
    expect(Math.max(...rows)).toBeLessThanOrEqual(50);
    expect(rows.reduce((sum, count) => sum + count, 0)).toBe(900);
    expect(events.map((event) => event.type).slice(0, 2)).toEqual(['phase', 'phase']);
    expect(events.at(-1)).toMatchObject({ type: 'done', cancelled: false, done: true });
  });

  it('reports where each partition started, so progress is a share of the offset span', async () => {
    const topic = threePartitionTopic(100);
    const events = await collect(
      streamSearch(
        deps(topic),
        { ...input({ cursor: '0:40,1:70,2:100', filters: ['value:equals:none'] }), pageSize: 10 },
        limits,
      ),
    );
    const progress = events.flatMap((event) => (event.type === 'progress' ? [event] : []));
    expect(progress.length).toBeGreaterThan(1);
    expect(progress[0]!.partitions.map((position) => position.startOffset)).toEqual(['40', '70', '100']);
    const covered = (event: (typeof progress)[number]) =>
      event.partitions.reduce(
        (sum, position) => sum + Number(position.nextOffset) - Number(position.startOffset),
        0,
      );
    const coveredByEvent = progress.map(covered);
    expect(coveredByEvent).toEqual([...coveredByEvent].sort((left, right) => left - right));
    // The span is 60 + 30 + 0 offsets, and a search that matches nothing reads all of it.
    expect(coveredByEvent.at(-1)).toBe(90);
  });
});
