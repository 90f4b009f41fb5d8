import { execFile } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from '@playwright/test';
import { Admin, Client, Producer } from '@weir/protocol';
import { readReplicationClusterInfo } from './support/replication-cluster';

/*
 * The drain of a broker on a real three-broker cluster (playwright.cluster.config.ts starts etcd,
 * the brokers and the console): from the Brokers page's link, the drain plan lists the broker's
 * partitions (replication-factor-3 ones are refused in words: there is no fourth broker), Execute
 * starts the others, and the page shows them finished. Every wait is a polling assertion.
 */

const screenshotsDir = join(import.meta.dirname, '..', 'docs', 'screenshots');

async function withAdmin<T>(work: (admin: Admin, client: Client) => Promise<T>): Promise<T> {
  const client = new Client({
    bootstrapServers: readReplicationClusterInfo().bootstrap.split(','),
    clientId: 'weir-e2e-reassignment',
  });
  try {
    return await work(new Admin(client), client);
  } finally {
    await client.close();
  }
}

/** The replicas of every partition of `topic`, in partition order. */
function replicasOf(topic: string): Promise<number[][]> {
  return withAdmin(async (admin) => {
    const [description] = await admin.describeTopics([topic]);
    return (description?.partitions ?? []).map((partition) => [...partition.replicaNodes]);
  });
}

test('a broker is drained from its Brokers page link: preview, execute, finished', async ({ page }) => {
  test.setTimeout(180_000);
  const topic = `drain-${Date.now() % 100_000}`;
  const drained = await withAdmin(async (admin, client) => {
    await admin.createTopics([{ name: topic, partitions: 3, replicationFactor: 2 }]);
    const producer = new Producer(client);
    await producer.send({
      topic,
      messages: Array.from({ length: 60 }, (_, index) => ({
        value: `record-${index}`,
        partition: index % 3,
      })),
    });
    await producer.close();
    const [description] = await admin.describeTopics([topic]);
    return description?.partitions[0]?.replicaNodes[0] ?? 1;
  });

  await page.goto('/brokers');
  await page.getByRole('link', { name: `Drain broker ${drained}` }).click();
  await expect(page).toHaveURL(new RegExp(`/reassignments\\?drain=${drained}`));
  await expect(page.getByRole('heading', { level: 1, name: 'Reassignments' })).toBeVisible();
  await expect(page.getByText('No partition is being moved')).toBeVisible();

  // Arriving from the link previews the drain at once.
  const plan = page.getByRole('table', { name: 'Drain plan' });
  await expect(plan).toContainText(`${topic}-0`, { timeout: 30_000 });
  await expect(plan).toContainText('Current → target');
  // The link scrolls to the drain panel; the screenshot shows the whole page from its top.
  await page.evaluate(() => window.scrollTo(0, 0));
  mkdirSync(screenshotsDir, { recursive: true });
  await page.screenshot({ path: join(screenshotsDir, 'reassignments.png'), fullPage: true });

  const execute = page.getByRole('button', { name: /^Execute \d+ moves?$/ }).last();
  await expect(execute).toBeEnabled();
  await execute.click();
  await expect(page.getByText(/\d+ moves? started/)).toBeVisible({ timeout: 30_000 });

  await expect
    .poll(async () => (await replicasOf(topic)).some((replicas) => replicas.includes(drained)), {
      timeout: 90_000,
    })
    .toBe(false);
  // The list refreshes while moves run and shows the empty state once every one has completed.
  await expect(page.getByText('No partition is being moved')).toBeVisible({ timeout: 30_000 });
  // kcat, a client of its own, reads every record from the replicas the partitions moved to.
  const { stdout } = await promisify(execFile)('kcat', [
    '-C',
    '-b',
    readReplicationClusterInfo().bootstrap,
    '-t',
    topic,
    '-e',
    '-q',
    '-f',
    '%s\\n',
  ]);
  expect(stdout.trim().split('\n').sort()).toEqual(
    Array.from({ length: 60 }, (_, index) => `record-${index}`).sort(),
  );
});

test('partitions chosen in the form move, a refused row said in words beside them', async ({ page }) => {
  test.setTimeout(120_000);
  const topic = `moved-${Date.now() % 100_000}`;
  const before = await withAdmin(async (admin) => {
    await admin.createTopics([{ name: topic, partitions: 2, replicationFactor: 2 }]);
    return (await replicasOf(topic))[1]!;
  });
  // Partition 1 moves to the broker it is not on, keeping its second replica.
  const target = [before[1]!, [1, 2, 3].find((id) => !before.includes(id))!];

  await page.goto('/reassignments');
  const form = page.getByRole('region', { name: 'Move partitions' });
  await form.getByLabel('Topic').selectOption(topic);
  await form.getByLabel('Partitions').fill('1, x');
  await form.getByLabel('Target replicas').fill(target.join(','));
  await form.getByRole('button', { name: 'Preview' }).click();
  await expect(form.getByText('"x" is not a number')).toBeVisible();

  await form.getByLabel('Partitions').fill('1,9');
  await form.getByRole('button', { name: 'Preview' }).click();
  const plan = form.getByRole('table', { name: 'Move plan' });
  await expect(plan).toContainText(`${before.join(',')} → ${target.join(',')}`);
  await expect(plan).toContainText(`Not moved: ${topic}-9 does not exist`);
  await form.getByRole('button', { name: 'Execute 1 move' }).click();
  await expect(form.getByText('1 move started.')).toBeVisible({ timeout: 30_000 });
  await expect.poll(async () => (await replicasOf(topic))[1], { timeout: 60_000 }).toEqual(target);
});
