import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, test } from '@playwright/test';
import { Producer } from '@weir/protocol';
import { screenshotBothThemes } from './support/screenshots';
import { openTransaction, seedTopic, withClient } from './support/sdk';

// The message browser marks aborted and still-open transactional records, and its "Read committed"
// view shows what a read_committed consumer sees, against a real broker: the SDK's transactional
// producer commits one transaction, aborts one and leaves one open.

function valueCells(page: Page) {
  // Partition, Offset, Timestamp, Kind, Key, Value: the value is the sixth cell of a row.
  return page.getByRole('table', { name: 'Messages' }).locator('tbody tr td:nth-child(6)');
}

function rowOf(page: Page, value: string) {
  return page.getByRole('table', { name: 'Messages' }).locator('tbody tr').filter({ hasText: value });
}

test('aborted and open records carry chips, and Read committed hides them', async ({ page }, testInfo) => {
  test.setTimeout(90_000);
  const topic = `e2e-txn-marks-${Date.now()}`;
  await seedTopic(topic, 1, [{ value: 'plain-before' }]);
  const committed = await openTransaction(`${topic}-committed`, topic, [{ value: 'paid-1' }]);
  await committed.commit();
  await committed.close();
  const aborted = await openTransaction(`${topic}-aborted`, topic, [
    { value: 'refund-1' },
    { value: 'refund-2' },
  ]);
  await aborted.abort();
  await aborted.close();
  const open = await openTransaction(`${topic}-open`, topic, [{ value: 'pending-1' }]);
  try {
    await page.goto(`/topics/${topic}/messages`);
    await expect(page.getByRole('status', { name: 'Search status' })).toContainText('Done');
    await expect(valueCells(page)).toHaveText([
      'plain-before',
      'paid-1',
      'refund-1',
      'refund-2',
      'pending-1',
    ]);

    const abortedChip = rowOf(page, 'refund-1').getByText('aborted', { exact: true });
    await expect(abortedChip).toBeVisible();
    await expect(abortedChip).toHaveAttribute('title', /aborted: read_committed consumers never see it/);
    await expect(abortedChip).toHaveCSS('text-decoration-line', 'line-through');
    await expect(rowOf(page, 'refund-2')).toContainText('aborted');
    const openChip = rowOf(page, 'pending-1').getByText('open transaction', { exact: true });
    await expect(openChip).toHaveAttribute('title', /still open/);
    await expect(rowOf(page, 'paid-1')).toContainText('transactional');
    await expect(rowOf(page, 'plain-before').getByText(/aborted|open transaction|transactional/)).toHaveCount(
      0,
    );
    await screenshotBothThemes(page, testInfo, 'messages-transaction-marks');
    // The chips are colour and a strike-through: axe checks their contrast and the toggle's label.
    const violations = (await new AxeBuilder({ page }).analyze()).violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map(
        (violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
      );
    expect(violations).toEqual([]);

    // The record panel names the status and the producer's id and epoch.
    await page.getByRole('button', { name: 'Open record 0:3' }).click();
    const record = page.getByRole('article', { name: 'Record 0:3' });
    await expect(record.getByTestId('record-transaction')).toContainText('Transaction: aborted');
    await expect(record).toContainText(/producer \d+, epoch \d+/);

    // Read committed: no aborted records, and nothing from the open transaction on.
    await page.getByRole('checkbox', { name: 'Read committed' }).check();
    await expect(page).toHaveURL(/rc=true/);
    await expect(page.getByRole('status', { name: 'Search status' })).toContainText('Done');
    await expect(valueCells(page)).toHaveText(['plain-before', 'paid-1']);
    await expect(page.getByRole('table', { name: 'Messages' })).not.toContainText('aborted');

    // The view survives a reload from its link; once the open transaction commits it shows.
    await open.commit();
    await page.reload();
    await expect(page.getByRole('checkbox', { name: 'Read committed' })).toBeChecked();
    await expect(valueCells(page)).toHaveText(['plain-before', 'paid-1', 'pending-1']);
    await expect(rowOf(page, 'pending-1')).toContainText('transactional');

    await page.getByRole('checkbox', { name: 'Read committed' }).uncheck();
    await expect(valueCells(page)).toHaveText([
      'plain-before',
      'paid-1',
      'refund-1',
      'refund-2',
      'pending-1',
    ]);
  } finally {
    await open.close();
  }
});

test('a read_committed live tail starts at the last stable offset and shows a transaction once it commits', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const topic = `e2e-txn-tail-${Date.now()}`;
  await seedTopic(topic, 1, []);
  // Open before the tail starts: its record lies below the high watermark, at the stable offset,
  // which is where a read_committed tail begins.
  const open = await openTransaction(`${topic}-open`, topic, [{ value: 'tail-pending' }]);
  try {
    await page.goto(`/topics/${topic}/messages?start=end&rc=true`);
    await expect(page.getByRole('status', { name: 'Tail status' })).toContainText('Live');
    await expect(page.getByRole('checkbox', { name: 'Read committed' })).toBeChecked();

    const aborted = await openTransaction(`${topic}-aborted`, topic, [{ value: 'tail-aborted' }]);
    await aborted.abort();
    await aborted.close();
    await withClient(async (client) => {
      const producer = new Producer(client);
      await producer.send({ topic, messages: [{ value: 'tail-plain' }] });
      await producer.close();
    });
    await open.commit();
    // Newest first; the aborted record, between the two, never reaches the tail.
    await expect(valueCells(page)).toHaveText(['tail-plain', 'tail-pending'], { timeout: 10_000 });
    await expect(page.getByRole('table', { name: 'Messages' })).not.toContainText('tail-aborted');
  } finally {
    await open.close();
  }
});
