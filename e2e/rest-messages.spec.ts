import { expect, test } from '@playwright/test';
import { seedTopic } from './support/sdk';

// The REST face of the gateway at the HTTP level: browsing messages page by page with the cursor
// the previous page returned, as any HTTP client would.

type Page = {
  rows: { partition: number; offset: string; value: { text: string } }[];
  cursor: string;
  nextCursor: string;
  done: boolean;
  partitions: { partition: number; startOffset: string; nextOffset: string; endOffset: string }[];
};

test('GET /api/v1/topics/{topic}/messages pages exactly with nextCursor', async ({ request }) => {
  const topic = `e2e-rest-${Date.now()}`;
  await seedTopic(
    topic,
    3,
    Array.from({ length: 9 }, (_, index) => ({ value: `v${index}`, partition: index % 3 })),
  );
  const url = `/api/v1/topics/${topic}/messages`;

  const firstResponse = await request.get(url, { params: { start: 'beginning', pageSize: 5 } });
  expect(firstResponse.status()).toBe(200);
  const first = (await firstResponse.json()) as Page;
  expect(first.rows).toHaveLength(5);
  expect(first.done).toBe(false);
  expect(first.cursor).toBe('0:0,1:0,2:0');
  expect(first.partitions.map((position) => position.startOffset)).toEqual(['0', '0', '0']);

  const second = (await (
    await request.get(url, { params: { pageSize: 5, cursor: first.nextCursor } })
  ).json()) as Page;
  expect(second.cursor).toBe(first.nextCursor);
  expect(second.rows).toHaveLength(4);
  expect(second.done).toBe(true);

  const seen = [...first.rows, ...second.rows].map((row) => `${row.partition}:${row.offset}`);
  expect(new Set(seen).size).toBe(9);

  // Previous is the same request with the cursor used before: the same rows come back.
  const again = (await (
    await request.get(url, { params: { pageSize: 5, cursor: first.cursor } })
  ).json()) as Page;
  expect(again.rows.map((row) => row.value.text)).toEqual(first.rows.map((row) => row.value.text));

  const badCursor = await request.get(url, { params: { cursor: 'not-a-cursor' } });
  expect(badCursor.status()).toBe(400);
  expect(JSON.stringify(await badCursor.json())).toContain('cursor');
});
