import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { Admin, Client } from '@weir/protocol';
import { readReplicationClusterInfo } from './support/replication-cluster';

/*
 * Preferred-leader elections from the ISR page on a real three-broker cluster (the auto leader
 * rebalance is off there): a restarted broker's partitions are led by other replicas, a row's
 * "Elect preferred leader" gives one back, and the header's "Elect preferred leaders" the rest,
 * each outcome said on the page. Every wait is an assertion polling the page, never a sleep.
 */

const screenshotsDir = join(import.meta.dirname, '..', 'docs', 'screenshots');
const PARTITIONS = 6;

async function withAdmin<T>(work: (admin: Admin) => Promise<T>): Promise<T> {
  const client = new Client({
    bootstrapServers: readReplicationClusterInfo().bootstrap.split(','),
    clientId: 'weir-e2e-elect',
  });
  try {
    return await work(new Admin(client));
  } finally {
    await client.close();
  }
}

test('a restarted broker’s leaderships come back from the row and header buttons', async ({ page }) => {
  test.setTimeout(180_000);
  const topic = `elect-${Date.now() % 100_000}`;
  await withAdmin((admin) =>
    admin.createTopics([{ name: topic, partitions: PARTITIONS, replicationFactor: 3 }]),
  );

  await page.goto(`/replication?topic=${topic}`);
  await expect(page.getByText(`Healthy: every partition of topic ${topic} is in sync`)).toBeVisible({
    timeout: 30_000,
  });
  // Read once the page is healthy: every partition is then led by its preferred replica.
  const victim = await withAdmin(async (admin) => {
    const [description] = await admin.describeTopics([topic]);
    return description?.partitions.find((row) => row.partition === 0)?.leaderId ?? -1;
  });
  expect(victim).toBeGreaterThan(0);

  // A controlled stop hands the victim's leaderships to other replicas; started again, it leads none.
  const restarted = await fetch(`${readReplicationClusterInfo().controlUrl}/brokers/${victim}/restart`, {
    method: 'POST',
  });
  expect(restarted.status).toBe(200);
  const table = page.getByRole('table', { name: 'Partitions needing attention' });
  const rowButton = page.getByRole('button', { name: `Elect the preferred leader of ${topic}-0` });
  await expect(rowButton).toBeVisible({ timeout: 60_000 });
  // Only once the victim is back in sync can the election give it its partitions back.
  await expect(table).not.toContainText('under-replicated', { timeout: 60_000 });
  await expect(table).toContainText('non-preferred leader');

  mkdirSync(screenshotsDir, { recursive: true });
  await page.screenshot({ path: join(screenshotsDir, 'replication-elect.png'), fullPage: true });

  await rowButton.click();
  const outcome = page.getByRole('status', { name: 'Election outcome' });
  await expect(outcome).toContainText('1 elected, 0 not needed.');
  await expect(outcome).toContainText(`${topic}-0 (broker ${victim})`);
  await expect(rowButton).toBeHidden({ timeout: 30_000 });

  await page.getByRole('button', { name: 'Elect preferred leaders' }).click();
  const dialog = page.getByRole('dialog', { name: 'Elect preferred leaders' });
  await expect(dialog).toContainText(/led by a non-preferred replica/);
  await dialog.getByRole('button', { name: 'Elect', exact: true }).click();
  await expect(outcome).toContainText(/\d+ elected, \d+ not needed\./);
  await expect(page.getByText(`Healthy: every partition of topic ${topic} is in sync`)).toBeVisible({
    timeout: 30_000,
  });
});
