import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { Admin, Client, Producer } from '@weir/protocol';
import { readReplicationClusterInfo } from './support/replication-cluster';

/*
 * The replication timeline page on a real three-broker cluster (playwright.cluster.config.ts
 * starts etcd, the brokers and the console): a follower killed by its PID and started again shows
 * up on one partition's timeline as an ISR shrink and, once it has caught up, an ISR expansion,
 * both in the chart and in the list below it. The page refreshes itself; every wait is an
 * assertion polling the page, never a sleep.
 */

const screenshotsDir = join(import.meta.dirname, '..', 'docs', 'screenshots');

async function withClient<T>(work: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({
    bootstrapServers: readReplicationClusterInfo().bootstrap.split(','),
    clientId: 'weir-e2e-timeline',
  });
  try {
    return await work(client);
  } finally {
    await client.close();
  }
}

test("a follower's ISR shrink and expansion are on its partition's timeline, chart and list", async ({
  page,
}) => {
  test.setTimeout(180_000);
  const topic = `timeline-${Date.now() % 100_000}`;
  const leaders = await withClient(async (client) => {
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
    return (description?.partitions ?? []).map((partition) => partition.leaderId);
  });
  // A broker that follows partition 0 and, as new topics' leaders are spread, leads another
  // partition: killing it shrinks partition 0's ISR and fails its own partition over.
  const leaderOfZero = leaders[0] ?? -1;
  const victim =
    leaders.find((leader) => leader !== leaderOfZero) ??
    [2, 3, 1].find((nodeId) => nodeId !== leaderOfZero) ??
    2;
  const victimLeads = leaders.includes(victim);

  // The way in: the Replication page's header links to the cluster's timeline.
  await page.goto('/replication');
  await page.getByRole('link', { name: 'Replication timeline' }).click();
  await expect(page).toHaveURL(/\/replication\/timeline$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Replication timeline' })).toBeVisible();

  await page.goto(`/replication/timeline?topic=${topic}&partition=0`);
  await expect(page.getByRole('region', { name: `Timeline of partition ${topic}-0` })).toBeVisible();
  const chart = page.getByTestId('replication-timeline-chart');
  const table = page.getByRole('table', { name: 'Replication events' });
  // A new topic's partition has no history yet: the empty state names the range it read.
  await expect(page.getByText(`No replication events for partition ${topic}-0 in the range`)).toBeVisible();
  await expect(page.getByText('Read the events from')).toBeVisible();

  const pid = readReplicationClusterInfo().pids[String(victim)];
  expect(pid).toEqual(expect.any(Number));
  process.kill(pid as number, 'SIGKILL');

  // The list's row for the shrink: the replica that left, and the ISR before and after without it.
  const shrinkRow = table.getByRole('row').filter({ hasText: 'ISR shrink' });
  await expect(shrinkRow).toHaveCount(1, { timeout: 30_000 });
  await expect(shrinkRow.getByRole('cell').nth(3)).toHaveText(String(victim));
  await expect(shrinkRow).toContainText(`${topic}-0`);
  // Broker ids are single digits here: the ISR held the victim before and not after.
  await expect(shrinkRow.getByRole('cell').nth(5)).toHaveText(
    new RegExp(`^\\[[^\\]]*${victim}[^\\]]*\\] → \\[[^${victim}\\]]*\\]$`),
  );
  await expect(chart).toHaveAttribute('aria-label', /ISR shrink/);
  await expect(chart.locator('svg text', { hasText: 'ISR shrink' })).toBeVisible();

  const restarted = await fetch(`${readReplicationClusterInfo().controlUrl}/brokers/${victim}/restart`, {
    method: 'POST',
  });
  expect(restarted.status).toBe(200);
  const expandRow = table.getByRole('row').filter({ hasText: 'ISR expand' });
  await expect(expandRow).toHaveCount(1, { timeout: 60_000 });
  await expect(expandRow.getByRole('cell').nth(3)).toHaveText(String(victim));
  await expect(expandRow).toContainText('the follower caught up with the leader');
  await expect(chart).toHaveAttribute('aria-label', /ISR shrink.*ISR expand|ISR expand.*ISR shrink/);
  await expect(chart.locator('svg text', { hasText: 'ISR expand' })).toBeVisible();
  await expect(shrinkRow).toHaveCount(1);

  // The kinds filter lives in the URL and narrows the list.
  await page.getByRole('combobox', { name: 'Kinds' }).selectOption('sessions');
  await expect(page).toHaveURL(/kinds=broker-session-started(,|%2C)broker-session-ended/);
  await expect(page.getByText(`No replication events for partition ${topic}-0 in the range`)).toBeVisible();
  await page.getByRole('combobox', { name: 'Kinds' }).selectOption('isr');
  await expect(expandRow).toHaveCount(1);

  // The whole topic: a lane per partition, and the victim's own partition failed over, a leader
  // change labelled on the chart with its epoch and cause.
  await page.goto(`/replication/timeline?topic=${topic}`);
  await expect(page.getByRole('region', { name: `Timeline of topic ${topic}` })).toBeVisible();
  await expect(table).toContainText(`${topic}-0`);
  await expect(chart.locator('svg text', { hasText: `${topic}-0` })).toBeVisible();
  if (victimLeads) {
    await expect(table).toContainText("failover: the leader's session ended");
    await expect(chart.locator('svg text', { hasText: /epoch \d+ · leader-not-live/ }).first()).toBeVisible();
  }
  mkdirSync(screenshotsDir, { recursive: true });
  await page.screenshot({ path: join(screenshotsDir, 'replication-timeline.png'), fullPage: true });
});
