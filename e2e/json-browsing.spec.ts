import { expect, type Page, test } from '@playwright/test';
import { seedTopic } from './support/sdk';

// JSON-aware browsing against a real broker: a filter on a JSON path, built in the form, is kept in
// the URL and evaluated by the broker; an opened JSON value is detected and pretty-printed.

async function offsetsShown(page: Page): Promise<string[]> {
  await expect(page.getByRole('status', { name: 'Search status' })).toContainText('Done');
  const rows = page.getByRole('table', { name: 'Messages' }).locator('tbody tr');
  const offsets: string[] = [];
  for (const row of await rows.all()) offsets.push((await row.locator('td').nth(1).textContent()) ?? '');
  return offsets;
}

test('a JSON-path filter finds the records whose user.id is 42, and the value is pretty-printed', async ({
  page,
}) => {
  const topic = `e2e-json-${Date.now()}`;
  await seedTopic(topic, 1, [
    { key: 'a', value: '{"user":{"id":42,"name":"ada"}}', partition: 0 },
    { key: 'b', value: '{"user":{"id":7,"name":"bob"}}', partition: 0 },
    { key: 'c', value: '{"user":{"id":"42","name":"cy"}}', partition: 0 },
    { key: 'd', value: 'user.id=42, not JSON', partition: 0 },
  ]);
  await page.goto(`/topics/${topic}/messages`);
  expect(await offsetsShown(page)).toEqual(['0', '1', '2', '3']);

  await page.getByRole('button', { name: '+ Add filter' }).click();
  await page.getByLabel('Filter 1 field').selectOption('valueJson');
  await page.getByLabel('Filter 1 path').fill('user.id');
  await page.getByLabel('Filter 1 operator').selectOption('equals');
  await page.getByLabel('Filter 1 text').fill('42');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page).toHaveURL(/f=value\.user\.id%3Aequals%3A42|f=value\.user\.id:equals:42/);
  expect(await offsetsShown(page)).toEqual(['0', '2']);

  // A reload reads the filter back from the URL into the form and runs the same search.
  await page.reload();
  await expect(page.getByLabel('Filter 1 path')).toHaveValue('user.id');
  expect(await offsetsShown(page)).toEqual(['0', '2']);

  await page.getByRole('button', { name: 'Open record 0:0' }).click();
  const value = page.getByRole('region', { name: 'Value' });
  await expect(value).toContainText('JSON detected; pretty-printed.');
  await expect(value.locator('pre')).toHaveText('{\n  "user": {\n    "id": 42,\n    "name": "ada"\n  }\n}');
});
