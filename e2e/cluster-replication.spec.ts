import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { Admin, Client, Producer } from '@weir/protocol';
import { readReplicationClusterInfo } from './support/replication-cluster';

/*
 * The ISR health page on a real three-broker cluster (playwright.cluster.config.ts starts etcd,
 * the brokers and the console): a follower killed by its PID shows up as the reason its partitions
 * are under-replicated, and once it is started again the page reports them in sync. The page
 * refreshes itself; every wait is an assertion polling the page, never a sleep.
 */

const screenshotsDir = join(import.meta.dirname, '..', 'docs', 'screenshots');

async function withClient<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({
    bootstrapServers: readReplicationClusterInfo().bootstrap.split(','),
    clientId: 'weir-e2e-cluster',
  });
  try {
    return await work(client);
  } finally {
    await client.close();
  }
}

test('a killed follower is named on the ISR page, and the page heals once it is back', async ({ page }) => {
  test.setTimeout(180_000);
  const topic = `rf3-${Date.now() % 100_000}`;
  const leaderOfZero = await withClient(async (client) => {
    const admin = new Admin(client);
    await admin.createTopics([
      { name: topic, partitions: 3, replicationFactor: 3, configs: { 'min.insync.replicas': '2' } },
    ]);
    const producer = new Producer(client);
    await producer.send({
      topic,
      messages: Array.from({ length: 30 }, (_, index) => ({
        value: `record-${index}`,
        partition: index % 3,
      })),
    });
    await producer.close();
    const [description] = await admin.describeTopics([topic]);
    return description?.partitions[0]?.leaderId ?? -1;
  });
  // Any broker but partition 0's leader follows partition 0 at least.
  const victim = [3, 2, 1].find((nodeId) => nodeId !== leaderOfZero) ?? 3;

  await page.goto(`/replication?topic=${topic}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Replication' })).toBeVisible();
  await expect(page.getByText(`Healthy: every partition of topic ${topic} is in sync`)).toBeVisible({
    timeout: 30_000,
  });
  await expect(page.getByText('answered: brokers 1, 2, 3')).toBeVisible();

  const pid = readReplicationClusterInfo().pids[String(victim)];
  expect(pid).toEqual(expect.any(Number));
  process.kill(pid as number, 'SIGKILL');

  const table = page.getByRole('table', { name: 'Partitions needing attention' });
  await expect(table).toContainText(`broker ${victim}'s session ended`, { timeout: 30_000 });
  await expect(table).toContainText('under-replicated');
  await expect(table).toContainText(`${topic}-0`);
  // The state filter lives in the URL.
  await page.getByRole('combobox', { name: 'State' }).selectOption('under-replicated');
  await expect(page).toHaveURL(/state=under-replicated/);
  await expect(table).toContainText(`broker ${victim}'s session ended`);
  mkdirSync(screenshotsDir, { recursive: true });
  await page.screenshot({ path: join(screenshotsDir, 'replication-isr.png'), fullPage: true });

  const restarted = await fetch(`${readReplicationClusterInfo().controlUrl}/brokers/${victim}/restart`, {
    method: 'POST',
  });
  expect(restarted.status).toBe(200);
  await expect(page.getByText('No partition matches the filters')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByText('answered: brokers 1, 2, 3')).toBeVisible();
});
