import { expect, test } from '@playwright/test';
import { screenshotBothThemes } from './support/screenshots';
import { openTransaction, readCommittedValues, seedTopic } from './support/sdk';

// The transactions inspector against a real broker. An application leaves a transaction open
// through the SDK (begin + send, no commit); the operator finds it in the console, sees the
// partitions it holds back, and aborts it with a reason after typing its id. Each test seeds its
// own topic and transactional id.

test('the transactions page shows an open transaction and aborts it', async ({ page }, testInfo) => {
  test.setTimeout(90_000);
  const topic = `e2e-txn-${Date.now()}`;
  const transactionalId = `${topic}-payments`;
  await seedTopic(topic, 2, [{ value: 'committed-before', partition: 0 }]);
  const transaction = await openTransaction(transactionalId, topic, [
    { value: 'open-0', partition: 0 },
    { value: 'open-1', partition: 1 },
  ]);
  try {
    await page.goto('/transactions');
    const row = page
      .getByRole('table', { name: 'Transactions' })
      .getByRole('row', { name: new RegExp(transactionalId) });
    await expect(row).toContainText('Ongoing');
    // Partitions column: both partitions of the topic are in the transaction.
    await expect(row.getByRole('cell').nth(3)).toHaveText('2');
    await expect(row).toContainText(topic);
    await expect(row).toContainText('/ 2 min');
    await screenshotBothThemes(page, testInfo, 'transactions');

    await row.getByRole('link', { name: transactionalId }).click();
    await expect(page.getByRole('heading', { level: 1, name: transactionalId })).toBeVisible();
    await expect(page.getByTestId('transaction-state')).toHaveText('Ongoing');
    const partitions = page.getByRole('table', { name: 'Transaction partitions' }).locator('tbody tr');
    await expect(partitions).toHaveCount(2);
    // Partition 0: a committed record at 0, the open one from offset 1, which holds the LSO there.
    await expect(partitions.nth(0).getByRole('cell').nth(2)).toHaveText('1');
    await expect(partitions.nth(0)).toContainText('holds LSO');
    await screenshotBothThemes(page, testInfo, 'transaction');

    await page.getByRole('button', { name: 'Abort transaction' }).click();
    const dialog = page.getByRole('dialog', { name: 'Abort transaction' });
    const confirm = dialog.getByRole('button', { name: 'Abort transaction' });
    await dialog.getByLabel(`Type "${transactionalId}" to confirm`).fill(transactionalId);
    // Typing the id is not enough: the broker logs a reason with every operator abort.
    await expect(confirm).toBeDisabled();
    await dialog.getByLabel(/^Reason/).fill('e2e: the payments producer crashed mid-transaction');
    await expect(confirm).toBeEnabled();
    await screenshotBothThemes(page, testInfo, 'abort-transaction-dialog');
    await confirm.click();
    await expect(dialog).toHaveCount(0);
    await expect(page.getByTestId('transaction-state')).toHaveText('CompleteAbort');
    await expect(page.getByRole('button', { name: 'Abort transaction' })).toBeDisabled();

    // The default filter lists open transactions only: the aborted one has gone from it.
    await page.getByRole('link', { name: 'Transactions', exact: true }).first().click();
    await expect(page.getByRole('table', { name: 'Transactions' })).not.toContainText(transactionalId);
    await page.getByRole('combobox', { name: 'Show' }).selectOption('all');
    await expect(
      page
        .getByRole('table', { name: 'Transactions' })
        .getByRole('row', { name: new RegExp(transactionalId) }),
    ).toContainText('CompleteAbort');

    // ABORT markers moved both partitions' high watermarks one past the aborted records; a
    // read_committed consumer reads up to there and sees only the record committed before.
    const values = await readCommittedValues(
      topic,
      new Map([
        [0, 3n],
        [1, 2n],
      ]),
    );
    expect(values).toEqual(['committed-before']);
  } finally {
    await transaction.close();
  }
});

test('a topic shows its producers and LSO gap; messages mark transactional and open records', async ({
  page,
}, testInfo) => {
  test.setTimeout(90_000);
  const topic = `e2e-txn-topic-${Date.now()}`;
  await seedTopic(topic, 1, []);
  const committed = await openTransaction(`${topic}-committed`, topic, [{ value: 'c-0' }, { value: 'c-1' }]);
  await committed.commit();
  await committed.close();
  const open = await openTransaction(`${topic}-open`, topic, [{ value: 'o-0' }]);
  try {
    // Offsets: c-0 0, c-1 1, COMMIT marker 2, o-0 3 (open): LSO 3, HWM 4.
    await page.goto(`/topics/${topic}`);
    const partition = page.getByRole('table', { name: 'Partitions' }).locator('tbody tr');
    await expect(partition).toContainText('open transaction');

    await page.getByRole('tab', { name: 'Producers' }).click();
    const producers = page.getByRole('table', { name: 'Producers' });
    const openProducer = producers.getByRole('row', { name: new RegExp(`${topic}-open`) });
    await expect(openProducer).toContainText('holds LSO');
    await expect(producers.getByRole('link', { name: `${topic}-committed` })).toBeVisible();
    await screenshotBothThemes(page, testInfo, 'topic-producers');

    await page.goto(`/topics/${topic}/messages`);
    await expect(page.getByRole('status', { name: 'Search status' })).toContainText('Done');
    // The COMMIT marker is never shown as a record (WeirScanRecords v2).
    const rows = page.getByRole('table', { name: 'Messages' }).locator('tbody tr');
    await expect(rows).toHaveCount(3);
    await expect(rows.nth(0)).toContainText('transactional');
    await expect(rows.nth(1)).toContainText('transactional');
    await expect(rows.nth(2)).toContainText('open transaction');
    await expect(page.getByRole('table', { name: 'Messages' })).not.toContainText('marker');
    await screenshotBothThemes(page, testInfo, 'messages-transactional');
  } finally {
    await open.close();
  }
});

test('lag is labelled transaction-aware where it is shown', async ({ page }) => {
  await page.goto('/groups');
  await expect(page.getByText('transaction-aware: measured against the last stable offset')).toBeVisible();
});
