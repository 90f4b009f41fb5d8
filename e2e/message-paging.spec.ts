import { expect, type Page, test } from '@playwright/test';
import { seedTopic } from './support/sdk';

// Paging through a search is exact: Next continues from per-partition cursors and Previous goes
// back to the cursor kept in the URL, so pages neither repeat nor skip a record.

async function pageOffsets(page: Page): Promise<string[]> {
  await expect(page.getByRole('status', { name: 'Search status' })).toContainText('Done');
  const rows = page.getByRole('table', { name: 'Messages' }).locator('tbody tr');
  const ids: string[] = [];
  for (const row of await rows.all()) {
    const cells = row.locator('td');
    ids.push(`${await cells.nth(0).textContent()}:${await cells.nth(1).textContent()}`);
  }
  return ids;
}

test('Next and Previous page exactly through 45 records on 3 partitions', async ({ page }) => {
  const topic = `e2e-paging-${Date.now()}`;
  await seedTopic(
    topic,
    3,
    Array.from({ length: 45 }, (_, index) => ({
      key: `k${index}`,
      value: `v${index}`,
      partition: index % 3,
    })),
  );
  await page.goto(`/topics/${topic}/messages?size=20`);
  const first = await pageOffsets(page);
  expect(first).toHaveLength(20);

  await page.getByRole('navigation', { name: 'Message pages' }).getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/prev=/);
  const second = await pageOffsets(page);
  expect(second).toHaveLength(20);

  await page.getByRole('navigation', { name: 'Message pages' }).getByRole('button', { name: 'Next' }).click();
  const third = await pageOffsets(page);
  expect(third).toHaveLength(5);

  const all = new Set([...first, ...second, ...third]);
  expect(all.size).toBe(45);

  await page
    .getByRole('navigation', { name: 'Message pages' })
    .getByRole('button', { name: 'Previous' })
    .click();
  expect(await pageOffsets(page)).toEqual(second);
  await page
    .getByRole('navigation', { name: 'Message pages' })
    .getByRole('button', { name: 'Previous' })
    .click();
  expect(await pageOffsets(page)).toEqual(first);
  await expect(
    page.getByRole('navigation', { name: 'Message pages' }).getByRole('button', { name: 'Previous' }),
  ).toBeDisabled();
});

test('Newest N puts the newest record first on page 1 and pages down exactly', async ({ page }) => {
  const topic = `e2e-newest-${Date.now()}`;
  // Each record is a millisecond newer than the one before, whatever its partition.
  const baseMs = Date.now() - 60_000;
  await seedTopic(
    topic,
    3,
    Array.from({ length: 60 }, (_, index) => ({
      key: `k${index}`,
      value: `v${index}`,
      partition: index % 3,
      timestampMs: baseMs + index,
    })),
  );
  await page.goto(`/topics/${topic}/messages?start=newest&n=45&size=20`);
  const first = await pageOffsets(page);
  expect(first).toHaveLength(20);
  // Record 59 went to partition 2 at offset 19: the newest of all.
  expect(first[0]).toBe('2:19');
  expect(first[1]).toBe('1:19');

  const pager = page.getByRole('navigation', { name: 'Message pages' });
  await pager.getByRole('button', { name: 'Next' }).click();
  await expect(page).toHaveURL(/prev=/);
  const second = await pageOffsets(page);
  await pager.getByRole('button', { name: 'Next' }).click();
  const third = await pageOffsets(page);
  expect(third).toHaveLength(5);
  const all = [...first, ...second, ...third];
  // ceil(45 / 3) = 15 per partition: offsets 5-19 of each, newest first, none twice.
  expect(new Set(all).size).toBe(45);
  expect(all.every((id) => Number(id.split(':')[1]) >= 5)).toBe(true);
  expect(all.at(-1)).toBe('0:5');
});
