import { expect, type Page, test } from '@playwright/test';
import { kcatProduce } from './support/kcat';
import { seedTopic } from './support/sdk';

// "End (new records only)" is a live tail: records a producer (kcat here) writes afterwards appear
// newest first; Pause stops receiving, Resume continues from where it paused.

function tailStatus(page: Page) {
  return page.getByRole('status', { name: 'Tail status' });
}

function valueCells(page: Page) {
  // Partition, Offset, Timestamp, Kind, Key, Value: the value is the sixth cell of a row.
  return page.getByRole('table', { name: 'Messages' }).locator('tbody tr td:nth-child(6)');
}

test('a live tail shows kcat records as they arrive, pauses and resumes where it paused', async ({
  page,
  context,
}) => {
  const topic = `e2e-tail-${Date.now()}`;
  await seedTopic(topic, 2, [{ partition: 0, value: 'before-the-tail' }]);
  // The tail's subscriptions (SSE requests) this page has open: Pause must close its one.
  const openTails = new Set<unknown>();
  page.on('request', (request) => {
    if (request.url().includes('messages.tail')) openTails.add(request);
  });
  page.on('requestfailed', (request) => openTails.delete(request));
  page.on('requestfinished', (request) => openTails.delete(request));

  await page.goto(`/topics/${topic}/messages`);
  await page.getByLabel('Start at').selectOption('end');
  await page.getByRole('button', { name: 'Search' }).click();
  await expect(page).toHaveURL(/start=end/);
  await expect(tailStatus(page)).toContainText('Live');
  await expect(page.getByText(/records\/s arriving/)).toBeVisible();
  expect(openTails.size).toBe(1);

  await kcatProduce(topic, 0, ['tail-one']);
  await expect(valueCells(page)).toHaveText(['tail-one'], { timeout: 5_000 });
  // The rate is averaged over the last seconds: one record in them is more than 0.0 records/s.
  await expect(page.getByText(/^(?!0\.0 )[\d.,]+ records\/s arriving/)).toBeVisible();

  // A second tab tails the same topic and stays live: it witnesses when a record has reached a
  // tail, so the paused tab can be checked without a fixed sleep.
  const witness = await context.newPage();
  await witness.goto(`/topics/${topic}/messages?start=end`);
  await expect(tailStatus(witness)).toContainText('Live');

  await page.getByRole('button', { name: 'Pause' }).click();
  await expect(tailStatus(page)).toContainText('Paused');
  await expect.poll(() => openTails.size).toBe(0);
  await kcatProduce(topic, 1, ['while-paused']);
  await expect(valueCells(witness)).toHaveText(['while-paused'], { timeout: 5_000 });
  await expect(valueCells(page)).toHaveText(['tail-one']);
  await expect(tailStatus(page)).toContainText('Paused · 1 shown');

  // Resume continues from the pause: the record written meanwhile comes first, then new ones.
  await page.getByRole('button', { name: 'Resume' }).click();
  await expect(valueCells(page)).toHaveText(['while-paused', 'tail-one'], { timeout: 5_000 });
  await expect(tailStatus(page)).toContainText('Live');
  expect(openTails.size).toBe(1);
  await kcatProduce(topic, 0, ['after-resume']);
  await expect(valueCells(page)).toHaveText(['after-resume', 'while-paused', 'tail-one'], { timeout: 5_000 });
  await expect(valueCells(witness)).toHaveText(['after-resume', 'while-paused'], { timeout: 5_000 });
  await witness.close();
});

test('a live tail applies the search filters', async ({ page }) => {
  const topic = `e2e-tail-filter-${Date.now()}`;
  await seedTopic(topic, 1, []);
  await page.goto(`/topics/${topic}/messages?start=end&f=${encodeURIComponent('value:contains:keep')}`);
  await expect(tailStatus(page)).toContainText('Live');
  // One kcat run, in order: the filtered-out record is written before the one that passes.
  await kcatProduce(topic, 0, ['drop-me', 'keep-me']);
  await expect(valueCells(page)).toHaveText(['keep-me'], { timeout: 5_000 });
  await kcatProduce(topic, 0, ['drop-again', 'keep-too']);
  await expect(valueCells(page)).toHaveText(['keep-too', 'keep-me'], { timeout: 5_000 });
});
