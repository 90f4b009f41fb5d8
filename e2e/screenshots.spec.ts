import { expect, test } from '@playwright/test';
import { screenshotBothThemes } from './support/screenshots';
import { seedTopic, startGroupMember } from './support/sdk';

// A screenshot of every page in light and dark mode, saved as test artifacts. Each page is first
// checked to have loaded its data, so the pictures show content rather than spinners.

test('every page, in light and dark mode', async ({ page }, testInfo) => {
  test.setTimeout(120_000);
  const topic = `e2e-shots-${Date.now()}`;
  const groupId = `${topic}-group`;
  await seedTopic(
    topic,
    3,
    Array.from({ length: 12 }, (_, index) => ({
      key: `customer-${index}`,
      value: JSON.stringify({ order: index, amount: index * 10 }),
      headers: [{ key: 'source', value: 'e2e' }],
      partition: index % 3,
    })),
  );
  const member = await startGroupMember(groupId, topic);
  // Half of each partition's four records committed, so the group page shows a lag of 6.
  await member.commitAt([0, 1, 2].map((partition) => ({ partition, offset: 2n })));
  await member.close();

  const pages: { name: string; path: string; ready: () => Promise<void> }[] = [
    {
      name: 'overview',
      path: '/',
      ready: () => expect(page.getByRole('list', { name: 'Health reasons' })).toBeVisible(),
    },
    {
      name: 'topics',
      path: '/topics',
      ready: () => expect(page.getByRole('table', { name: 'Topics' })).toContainText(topic),
    },
    {
      name: 'topic-partitions',
      path: `/topics/${topic}`,
      ready: () => expect(page.getByRole('table', { name: 'Partitions' }).locator('tbody tr')).toHaveCount(3),
    },
    {
      name: 'topic-configs',
      path: `/topics/${topic}?tab=configs`,
      ready: () => expect(page.getByRole('table', { name: 'Configuration' })).toContainText('retention.ms'),
    },
    {
      name: 'topic-maintenance',
      path: `/topics/${topic}?tab=maintenance`,
      ready: () => expect(page.getByRole('region', { name: 'Delete records' })).toBeVisible(),
    },
    {
      name: 'messages',
      path: `/topics/${topic}/messages?open=0:0&decode=json`,
      ready: () => expect(page.getByRole('status', { name: 'Search status' })).toContainText('Done'),
    },
    {
      name: 'record',
      path: `/topics/${topic}/messages/0/0?decode=json`,
      ready: () => expect(page.getByRole('region', { name: 'Value' })).toBeVisible(),
    },
    {
      name: 'produce',
      path: `/topics/${topic}/produce`,
      ready: () => expect(page.getByRole('form', { name: 'Produce' })).toBeVisible(),
    },
    {
      name: 'groups',
      path: '/groups',
      ready: () => expect(page.getByRole('table', { name: 'Consumer groups' })).toContainText(groupId),
    },
    {
      name: 'group',
      path: `/groups/${groupId}`,
      ready: () => expect(page.getByTestId('total-lag')).toHaveText('6'),
    },
    {
      name: 'brokers',
      path: '/brokers',
      ready: () => expect(page.getByRole('table', { name: 'Brokers' })).toContainText('controller'),
    },
    {
      // One broker: every partition has its single replica in sync and led by it.
      name: 'replication',
      path: '/replication',
      ready: () => expect(page.getByText('The cluster is healthy')).toBeVisible(),
    },
    {
      // The whole cluster's timeline: what one standalone broker recorded (perhaps nothing).
      name: 'replication-timeline',
      path: '/replication/timeline',
      ready: () => expect(page.getByRole('region', { name: 'Timeline of the whole cluster' })).toBeVisible(),
    },
  ];
  for (const entry of pages) {
    await test.step(entry.name, async () => {
      await page.goto(entry.path);
      await entry.ready();
      await screenshotBothThemes(page, testInfo, entry.name);
    });
  }

  await test.step('create-topic dialog', async () => {
    await page.goto('/topics');
    await page.getByRole('button', { name: 'Create topic' }).click();
    await expect(page.getByRole('dialog', { name: 'Create topic' })).toBeVisible();
    await screenshotBothThemes(page, testInfo, 'create-topic-dialog');
  });
});
