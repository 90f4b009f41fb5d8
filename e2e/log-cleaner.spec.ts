import { expect, test } from '@playwright/test';
import { Admin, Client, InternalAdmin, type LogCleanerPartitionState, Producer } from '@weir/protocol';
import { readClusterInfo } from './support/e2e-cluster';
import { seedTopic, withClient } from './support/sdk';

// The log cleaner's state on a compacted topic's Partitions tab (issue #19): an application fills
// the topic with values its keys supersede, the broker's cleaner removes the old ones, and the page
// shows the same numbers the broker's WeirDescribeLogCleaner answers. A topic that does not
// compact shows no cleaner panel.

/** The broker's own account of the partition, once cleaned and judged again with nothing more due. */
async function settledState(topic: string): Promise<LogCleanerPartitionState> {
  const info = readClusterInfo();
  const client = new Client({
    bootstrapServers: [info.internalBootstrap],
    clientId: 'weir-e2e-cleaner',
    sasl: { mechanism: 'WEIR-TOKEN', token: info.internalToken },
  });
  try {
    const internal = new InternalAdmin(client);
    let state: LogCleanerPartitionState | undefined;
    await expect
      .poll(
        async () => {
          [state] = await internal.describeLogCleaner([topic]);
          return state !== undefined && state.removedBytesTotal > 0n && state.lastOutcome === 'not-due';
        },
        { message: `the cleaner to clean ${topic}-0 and find nothing more due`, timeout: 30_000 },
      )
      .toBe(true);
    return state!;
  } finally {
    await client.close();
  }
}

/** The exact byte count a ByteSize shows on hover. */
function bytesTitle(bytes: bigint): string {
  return `${Number(bytes).toLocaleString('en-US')} bytes`;
}

test('a compacted topic shows dirty ratio, last clean, bytes removed and the next clean per replica', async ({
  page,
}) => {
  const topic = `e2e-compacted-${Date.now()}`;
  await withClient(async (client) => {
    await new Admin(client).createTopics([
      {
        name: topic,
        partitions: 1,
        configs: {
          'cleanup.policy': 'compact',
          'segment.bytes': '1024',
          'min.cleanable.dirty.ratio': '0.01',
        },
      },
    ]);
    const producer = new Producer(client);
    // 200 values of 5 keys in batches of 5: every closed segment is superseded by the next.
    for (let batch = 0; batch < 40; batch++) {
      await producer.send({
        topic,
        messages: Array.from({ length: 5 }, (_, index) => ({
          key: `key-${index}`,
          value: `value-${batch * 5 + index}`,
        })),
      });
    }
    await producer.close();
  });
  const panel = page.getByRole('region', { name: 'Log cleaner' });
  const row = panel.getByRole('table', { name: 'Log cleaner' }).locator('tbody tr');
  // Columns: partition, broker, dirty ratio, cleans at, cleaned up to, last cleaned, removed by
  // the last clean, removed since start, next clean, last error.
  const cells = row.getByRole('cell');
  // The cleaner can clean again after a settled read: its bound follows the flushed point, which
  // a loaded machine moves later. So the page is read right after the broker, until both show the
  // same clean (its cleaned-up-to offset), and the rest is compared with that read.
  let state = await settledState(topic);
  await expect
    .poll(
      async () => {
        state = await settledState(topic);
        await page.goto(`/topics/${topic}`);
        await expect(page.getByRole('heading', { level: 1, name: topic })).toBeVisible();
        await expect(row).toHaveCount(1);
        await expect(cells).toHaveCount(10);
        const shown = (await cells.nth(4).textContent())?.trim();
        return shown === Number(state.cleanedUpToOffset).toLocaleString('en-US');
      },
      { message: 'the page to show the clean the broker reports', timeout: 60_000 },
    )
    .toBe(true);
  await expect(cells.nth(0)).toHaveText('0');
  await expect(cells.nth(1)).toHaveText(`${state.brokerId}leader`);
  await expect(cells.nth(2)).toHaveText(`${(state.dirtyRatio * 100).toFixed(1)} %`);
  await expect(cells.nth(3)).toHaveText('1.0 %');
  await expect(cells.nth(4)).toHaveText(Number(state.cleanedUpToOffset).toLocaleString('en-US'));
  await expect(cells.nth(5).locator('time')).toHaveAttribute(
    'datetime',
    new Date(state.lastCleanedAtMs!).toISOString(),
  );
  await expect(cells.nth(6).locator('span')).toHaveAttribute(
    'title',
    bytesTitle(state.lastCleanRemovedBytes!),
  );
  await expect(cells.nth(7).locator('span')).toHaveAttribute('title', bytesTitle(state.removedBytesTotal));
  await expect(cells.nth(7)).not.toHaveText('0 B');
  await expect(cells.nth(8)).toHaveText('at 1.0 % dirty');
  await expect(cells.nth(9)).toHaveText('—');
});

test('a topic that does not compact shows no log cleaner panel', async ({ page }) => {
  const topic = `e2e-not-compacted-${Date.now()}`;
  await seedTopic(topic, 1, [{ key: 'k', value: 'v' }]);
  // The panel's read (batched with others into one tRPC request) must have been answered before
  // its absence means anything.
  const answered = page.waitForResponse((response) => response.url().includes('topics.logCleaner'));
  await page.goto(`/topics/${topic}`);
  expect((await answered).status()).toBe(200);
  await expect(page.getByRole('table', { name: 'Partitions' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Log cleaner' })).toHaveCount(0);
});
