import { expect, type Page, test } from '@playwright/test';
import { seedTopic } from './support/sdk';

// Topic changes from the topic page: a config edit previews old → new before it applies, the
// partition count grows, and records before an offset are deleted after the topic name is typed.
// Internal topics show the same controls disabled, with the server's reason.

async function openTab(page: Page, topic: string, tab: 'configs' | 'maintenance' | 'partitions') {
  await page.goto(`/topics/${topic}?tab=${tab}`);
  await expect(page.getByRole('heading', { level: 1, name: topic })).toBeVisible();
}

test('a config edit shows the old → new diff before Apply, then applies it', async ({ page }) => {
  const topic = `e2e-config-${Date.now()}`;
  await seedTopic(topic, 1, []);
  await openTab(page, topic, 'configs');

  await page.getByRole('button', { name: 'Edit retention.ms' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit retention.ms' });
  await dialog.getByLabel('New value').fill('3600000');
  await expect(dialog.getByRole('button', { name: 'Apply change' })).toHaveCount(0);
  await dialog.getByRole('button', { name: 'Preview change' }).click();

  const preview = dialog.getByRole('table', { name: 'Change preview' });
  const change = preview.locator('tbody tr');
  await expect(change).toHaveCount(1);
  await expect(change.getByRole('cell').nth(0)).toHaveText('retention.ms');
  await expect(change.getByRole('cell').nth(1)).not.toHaveText('3600000');
  await expect(change.getByRole('cell').nth(2)).toHaveText('3600000');

  await dialog.getByRole('button', { name: 'Apply change' }).click();
  await expect(dialog).toHaveCount(0);
  const row = page
    .getByRole('table', { name: 'Configuration' })
    .getByRole('row', { name: /^retention\.ms\b/ });
  await expect(row).toContainText('3600000');
  await expect(row).toContainText('topic');
});

test("a config value the broker refuses shows the broker's reason, key included, and applies nothing", async ({
  page,
}) => {
  const topic = `e2e-config-bad-${Date.now()}`;
  await seedTopic(topic, 1, []);
  await openTab(page, topic, 'configs');

  await page.getByRole('button', { name: 'Edit retention.ms' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit retention.ms' });
  const value = dialog.getByLabel('New value');
  await value.fill('abc');
  await dialog.getByRole('button', { name: 'Preview change' }).click();
  await expect(value).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog).toContainText(
    'Invalid value abc for configuration retention.ms: Not a number of type LONG',
  );
  await expect(dialog.getByRole('button', { name: 'Apply change' })).toHaveCount(0);
});

test('partitions are added from the maintenance tab', async ({ page }) => {
  const topic = `e2e-grow-${Date.now()}`;
  await seedTopic(topic, 1, []);
  await openTab(page, topic, 'maintenance');

  const panel = page.getByRole('region', { name: 'Add partitions' });
  await panel.getByLabel('New partition count').fill('3');
  await panel.getByRole('button', { name: 'Add partitions' }).click();
  await expect(panel.getByRole('status')).toHaveText('The topic now has 3 partitions (was 1).');

  await page.getByRole('tab', { name: /Partitions/ }).click();
  await expect(page.getByRole('table', { name: 'Partitions' }).locator('tbody tr')).toHaveCount(3);
});

test('records before an offset are deleted after typing the topic name, moving the log start', async ({
  page,
}) => {
  const topic = `e2e-trim-${Date.now()}`;
  await seedTopic(
    topic,
    2,
    Array.from({ length: 10 }, (_, index) => ({ value: `r${index}`, partition: 1 })),
  );
  await openTab(page, topic, 'maintenance');

  const panel = page.getByRole('region', { name: 'Delete records' });
  await panel.getByLabel('Partition').selectOption('1');
  await panel.getByLabel('Before offset').fill('4');
  await panel.getByRole('button', { name: 'Delete records…' }).click();

  const dialog = page.getByRole('dialog', { name: 'Delete records' });
  const confirm = dialog.getByRole('button', { name: 'Delete records' });
  await expect(dialog).toContainText('before offset 4');
  await expect(confirm).toBeDisabled();
  await dialog.getByLabel(`Type "${topic}" to confirm`).fill(topic);
  await confirm.click();
  await expect(dialog).toHaveCount(0);
  await expect(panel.getByRole('status')).toHaveText('Records deleted: partition 1 now starts at offset 4.');

  await page.getByRole('tab', { name: /Partitions/ }).click();
  const rows = page.getByRole('table', { name: 'Partitions' }).locator('tbody tr');
  // Columns: partition, leader, replicas, in-sync replicas, log start.
  await expect(rows.nth(1).getByRole('cell').nth(4)).toHaveText('4');
  await expect(rows.nth(0).getByRole('cell').nth(4)).toHaveText('0');
});

test('an internal topic keeps its destructive controls visible but disabled, with the reason', async ({
  page,
}) => {
  await openTab(page, '__consumer_offsets', 'maintenance');
  const remove = page.getByRole('button', { name: 'Delete topic' });
  await expect(remove).toBeDisabled();
  await expect(remove).toHaveAccessibleDescription(/is an internal topic/);
  await expect(page.getByRole('link', { name: 'Produce' })).toHaveCount(0);
  await expect(
    page.getByRole('region', { name: 'Add partitions' }).getByRole('button', { name: 'Add partitions' }),
  ).toBeDisabled();
  await expect(
    page.getByRole('region', { name: 'Delete records' }).getByRole('button', { name: 'Delete records…' }),
  ).toBeDisabled();
});

test('a topic that does not exist offers nothing to browse, produce to or delete', async ({ page }) => {
  const topic = `e2e-no-such-topic-${Date.now()}`;
  await page.goto(`/topics/${topic}`);
  await expect(page.getByText(`Could not read topic ${topic}`)).toBeVisible();
  await expect(page.getByRole('link', { name: 'Browse messages' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Produce' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Delete topic' })).toHaveCount(0);
});
