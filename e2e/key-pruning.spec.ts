import { expect, test } from '@playwright/test';
import { partitionForKey } from '@weir/protocol';
import { seedTopic } from './support/sdk';

// A "key equals" search reads only the partition the key hashes to (the default partitioner), says
// so, and offers to search every partition instead. Progress is shown as the offset span covered.

test('a key search names the one partition it reads, and can be widened to all', async ({ page }) => {
  const topic = `e2e-keyed-${Date.now()}`;
  const partitions = 4;
  // No partition given: the SDK's producer places each key with murmur2, like Kafka's clients.
  await seedTopic(
    topic,
    partitions,
    Array.from({ length: 40 }, (_, index) => ({ key: `customer-${index}`, value: `order ${index}` })),
  );
  const expected = partitionForKey(new TextEncoder().encode('customer-7'), partitions);

  await page.goto(`/topics/${topic}/messages?f=key:equals:customer-7`);
  const status = page.getByRole('status', { name: 'Search status' });
  await expect(status).toContainText('Done');
  const note = page.getByRole('note', { name: 'Key partition' });
  await expect(note).toContainText(`Searching partition ${expected} only: the key hashes there`);
  const rows = page.getByRole('table', { name: 'Messages' }).locator('tbody tr');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('customer-7');
  await expect(page.getByRole('progressbar', { name: 'Offset span covered' })).toHaveAttribute(
    'aria-valuenow',
    '100',
  );

  await note.getByRole('button', { name: 'Search all partitions' }).click();
  await expect(page).toHaveURL(/all=true/);
  await expect(status).toContainText('Done');
  await expect(note).toHaveCount(0);
  await expect(rows).toHaveCount(1);
  await expect(page.getByLabel('Search all partitions (else only the one the key hashes to)')).toBeChecked();
});
