import { expect, test } from '@playwright/test';
import { readClusterInfo } from './support/e2e-cluster';
import { seedTopic } from './support/sdk';

// The Brokers page: each broker with its state and the controller marked, and the partitions it
// leads listed by topic, each linking to the topic's page. The e2e web server runs one broker, so
// it is live, the controller, and the leader of every partition. The broker page lists the configs
// its start set (the test broker sets its listeners, data directory and internal token).

test('lists the broker as live and controller, with the partitions it leads linked to their topic', async ({
  page,
}) => {
  const topic = `e2e-led-${Date.now()}`;
  await seedTopic(topic, 3, []);
  await page.goto('/brokers');
  await expect(page.getByRole('heading', { level: 1, name: 'Brokers' })).toBeVisible();
  const rows = page.getByRole('table', { name: 'Brokers' }).locator('tbody tr');
  await expect(rows).toHaveCount(1);
  const row = rows.first();
  await expect(row).toContainText('controller');
  await expect(row).toContainText('live');
  const link = row.getByRole('link', { name: new RegExp(`^${topic} \\[0, 1, 2\\]$`) });
  await expect(link).toBeVisible();
  await link.click();
  await expect(page.getByRole('heading', { level: 1, name: topic })).toBeVisible();
});

test('shows the client and internal listeners, version, leader skew and disk, and opens the broker page with its non-default configs', async ({
  page,
}) => {
  const { bootstrap, internalBootstrap } = readClusterInfo();
  await seedTopic(`e2e-disk-${Date.now()}`, 2, [{ value: 'a' }, { value: 'b' }]);
  await page.goto('/brokers');
  const table = page.getByRole('table', { name: 'Brokers' });
  const row = table.locator('tbody tr').first();
  // The client listener is what clients use; the internal one is labelled as such.
  await expect(row).toContainText(`client ${bootstrap}`);
  await expect(row).toContainText(`internal ${internalBootstrap}`);
  await expect(row).toContainText(/\d+\.\d+\.\d+/);
  // The only broker leads everything, which is exactly its even share.
  await expect(row).toContainText(/leads \d+, even share \d+(\.\d)?, 0 %/);
  await expect(row).toContainText(/in \d+ partitions · .+ free of .+/);
  await expect(row).toContainText('since');
  for (const header of ['Listeners', 'Version', 'Leader skew', 'Followed', 'Disk']) {
    await expect(table.getByRole('columnheader', { name: header })).toBeVisible();
  }

  await row.getByRole('link', { name: '0', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Broker 0' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Broker facts' })).toContainText(`client ${bootstrap}`);
  const configs = page.getByRole('table', { name: 'Broker configs' });
  const token = configs.locator('tbody tr', { hasText: 'weir.internal.listener.token' });
  await expect(token).toContainText('sensitive, hidden');
  await expect(configs.locator('tbody tr', { hasText: 'log.dirs' })).toContainText('static-broker');
  // Defaults are not listed.
  await expect(configs.locator('tbody tr', { hasText: 'num.partitions' })).toHaveCount(0);
});
