import { expect, type Page, test } from '@playwright/test';
import { Client, InternalAdmin } from '@weir/protocol';
import { readClusterInfo } from './support/e2e-cluster';
import { seedTopic, startGroupMember } from './support/sdk';

// Lag and throughput over time (issue #21 item 2): the broker of serve-console.ts samples every
// 500 ms (stats.history.sampleIntervalMs), so a group that commits on purpose gets a real history
// within a second. The spec waits until the broker's own history shows each state, then checks
// the console draws it: the group page's chart and time-to-zero estimate, the topic page's rate
// chart and the lists' sparklines.

/** Waits until the broker sampled the group's total lag at `lag`. */
async function untilSampled(groupId: string, lag: number): Promise<void> {
  const info = readClusterInfo();
  const client = new Client({
    bootstrapServers: [info.internalBootstrap],
    clientId: 'weir-e2e-history',
    sasl: { mechanism: 'WEIR-TOKEN', token: info.internalToken },
  });
  try {
    const internal = new InternalAdmin(client);
    await expect
      .poll(
        async () => {
          const { rows } = await internal.describeLagHistory([groupId], { sinceMs: Date.now() - 60_000 });
          return rows[0]?.totalLag.filter((value) => value !== null).at(-1);
        },
        { message: `the broker to sample ${groupId} at lag ${lag}`, timeout: 20_000 },
      )
      .toBe(lag);
  } finally {
    await client.close();
  }
}

/** A chart ECharts has drawn: its SVG has paths, and it says how long the drawing took. */
async function expectDrawn(page: Page, testId: string, seriesCount: number): Promise<void> {
  const chart = page.getByTestId(testId);
  await expect(chart).toHaveAttribute('data-series', String(seriesCount));
  await expect(chart).toHaveAttribute('data-render-ms', /^\d+(\.\d+)?$/);
  await expect(chart.locator('svg path').first()).toBeAttached();
}

test('the group and topic pages chart real samples, with the time to zero, and the lists show sparklines', async ({
  page,
}) => {
  const topic = `e2e-lag-${Date.now()}`;
  const groupId = `${topic}-readers`;
  await seedTopic(
    topic,
    2,
    Array.from({ length: 40 }, (_, index) => ({ value: `order-${index}`, partition: index % 2 })),
  );
  const member = await startGroupMember(groupId, topic);
  try {
    // 20 records per partition, 5 committed on each: lag 30, and nothing consumed since.
    await member.commitAt([
      { partition: 0, offset: 5n },
      { partition: 1, offset: 5n },
    ]);
    await untilSampled(groupId, 30);

    await page.goto(`/groups/${encodeURIComponent(groupId)}`);
    const lagPanel = page.getByRole('region', { name: 'Lag over time' });
    await expect(page.getByTestId('lag-history-chart')).toHaveAttribute('aria-label', /now 30/);
    // Stacked by partition by default: one series per partition.
    await expectDrawn(page, 'lag-history-chart', 2);
    await expect(page.getByTestId('time-to-zero')).toHaveAttribute('data-trend', 'not-catching-up');
    await expect(page.getByTestId('time-to-zero')).toContainText('Not catching up');

    await lagPanel.getByRole('combobox', { name: 'Lag chart view' }).selectOption('total');
    await expect(page).toHaveURL(/lag=total/);
    await expectDrawn(page, 'lag-history-chart', 1);

    // The group reads and commits everything: the next sample has no lag. (It may read the first
    // records again: it fetched from the start before the commit above.)
    expect(await member.drain(30)).toBeGreaterThanOrEqual(30);
    await untilSampled(groupId, 0);
    await lagPanel.getByRole('button', { name: /refresh/i }).click();
    await expect(page.getByTestId('time-to-zero')).toHaveAttribute('data-trend', 'caught-up');
    await expect(page.getByTestId('lag-history-chart')).toHaveAttribute('aria-label', /now 0/);

    await page.goto(`/groups?q=${encodeURIComponent(groupId)}`);
    const groupSparkline = page
      .getByRole('table', { name: 'Consumer groups' })
      // Each point is the largest lag of its minute, so the newest minute still shows the 30.
      .getByRole('img', { name: /^Lag over the last hour: now \d+, at most 30$/ });
    await expect(groupSparkline).toBeVisible();
    // A point per minute of the hour: this group is younger than that, so one or two points.
    expect(Number(await groupSparkline.getAttribute('data-samples'))).toBeGreaterThanOrEqual(1);
    await expect(groupSparkline.locator('path')).toBeAttached();

    await page.goto(`/topics?q=${encodeURIComponent(topic)}`);
    const topicSparkline = page
      .getByRole('table', { name: 'Topics' })
      .getByRole('img', { name: /^Records produced per second: now / });
    await expect(topicSparkline).toBeVisible();
    await expect(topicSparkline.locator('path')).toBeAttached();

    await page.goto(`/topics/${encodeURIComponent(topic)}`);
    await expectDrawn(page, 'throughput-history-chart', 2);
    await expect(page.getByTestId('throughput-history-chart')).toHaveAttribute('aria-label', /\d+ samples/);
    const ratePanel = page.getByRole('region', { name: 'Produce and consume rates' });
    await ratePanel.getByRole('combobox', { name: 'Rate chart range' }).selectOption('24h');
    await expect(page).toHaveURL(/history=24h/);
    await expect(page.getByTestId('throughput-history-chart')).toHaveAttribute('aria-label', /last 24 hours/);
    await expectDrawn(page, 'throughput-history-chart', 2);
  } finally {
    await member.close();
  }
});
