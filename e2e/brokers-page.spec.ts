import { expect, test } from '@playwright/test';
import { seedTopic } from './support/sdk';

// The Brokers page: each broker with its state and the controller marked, and the partitions it
// leads listed by topic, each linking to the topic's page. The e2e web server runs one broker, so
// it is live, the controller, and the leader of every partition.

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
