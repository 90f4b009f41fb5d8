import { expect, test } from '@playwright/test';
import { seedTopic } from './support/sdk';

// A value above the viewer's render guard (256 KiB) is not rendered by default: the viewer says the
// record is intact and offers "Load anyway", which fetches the whole record and shows it.

test('a large value is held back behind "Load anyway" and then shown whole', async ({ page }) => {
  const topic = `e2e-large-${Date.now()}`;
  const value = `${'x'.repeat(300 * 1024)}END-OF-VALUE`;
  await seedTopic(topic, 1, [{ key: 'big', value, partition: 0 }]);

  await page.goto(`/topics/${topic}/messages`);
  await expect(page.getByRole('status', { name: 'Search status' })).toContainText('Done');
  await page.getByRole('button', { name: 'Open record 0:0' }).click();

  const section = page.getByRole('region', { name: 'Value' });
  await expect(section).toContainText('It is not shown by default to keep the page responsive');
  await expect(section).toContainText('the record in the topic is intact');
  await expect(section).not.toContainText('END-OF-VALUE');

  await section.getByRole('button', { name: 'Load anyway' }).click();
  await expect(section.getByRole('button', { name: 'Load anyway' })).toHaveCount(0);
  await expect(section).toContainText('END-OF-VALUE');
  await expect(section).toContainText(`${(value.length).toLocaleString('en-US')} bytes`);
});
