import { expect, test } from '@playwright/test';
import { seedTopic } from './support/sdk';

// At a common laptop width the message table fits its card, Partition and Offset stay in view
// when a record is opened, and the opened record is on screen without scrolling the page.

test.use({ viewport: { width: 1440, height: 900 } });

test('at 1440 px the table fits its card and an opened record is in view beside its row', async ({
  page,
}) => {
  const topic = `e2e-layout-${Date.now()}`;
  const longValue = JSON.stringify({ user: { id: 42, name: 'x'.repeat(400) }, items: ['a', 'b'] });
  await seedTopic(
    topic,
    2,
    Array.from({ length: 30 }, (_, index) => ({
      key: `customer-${index}-${'k'.repeat(80)}`,
      value: longValue,
      partition: index % 2,
    })),
  );
  await page.goto(`/topics/${topic}/messages`);
  const table = page.getByRole('table', { name: 'Messages' });
  await expect(page.getByRole('status', { name: 'Search status' })).toContainText('Done');

  // The table is no wider than the box that scrolls it, so nothing hides off to the right.
  const widths = await table.evaluate((element) => ({
    table: element.scrollWidth,
    box: (element.parentElement as HTMLElement).clientWidth,
  }));
  expect(widths.table).toBeLessThanOrEqual(widths.box);

  await page.getByRole('button', { name: 'Open record 1:7' }).click();
  const record = page.getByRole('region', { name: 'Record' });
  await expect(record).toBeVisible();
  await expect(record).toBeInViewport();
  // The opened row stays in view with its partition and offset, and its Close button at the far
  // right of the row is not cut off either.
  const openRow = table.locator('tbody tr', { has: page.locator('button[aria-pressed="true"]') });
  await expect(openRow.locator('td').nth(0)).toHaveText('1');
  await expect(openRow.locator('td').nth(1)).toHaveText('7');
  await expect(openRow.locator('td').nth(0)).toBeInViewport({ ratio: 1 });
  await expect(openRow.locator('td').nth(1)).toBeInViewport({ ratio: 1 });
  await expect(openRow.locator('button[aria-pressed="true"]')).toBeInViewport({ ratio: 1 });
  const openWidths = await table.evaluate((element) => ({
    table: element.scrollWidth,
    box: (element.parentElement as HTMLElement).clientWidth,
  }));
  expect(openWidths.table).toBeLessThanOrEqual(openWidths.box);
});
