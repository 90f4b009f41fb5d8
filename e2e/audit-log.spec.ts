import { expect, test } from '@playwright/test';

// The audit log (issue #21 item 3): an action done through REST is recorded by the broker that
// handled it and listed on /audit with its principal and outcome; the filters live in the URL.

/** The principal the e2e console's broker clients authenticate as: the internal token's. */
const CONSOLE_PRINCIPAL = 'User:weir-internal';

test('the audit log lists an action done through REST, with its principal and outcome', async ({
  page,
  request,
}) => {
  const topic = `e2e-audit-${Date.now()}`;
  const headers = { 'x-weir-csrf': '1' };
  const created = await request.post('/api/v1/topics', { data: { name: topic, partitions: 2 }, headers });
  expect(created.status()).toBe(200);
  // The same again fails, and the failure is recorded too.
  const again = await request.post('/api/v1/topics', { data: { name: topic, partitions: 2 }, headers });
  expect(again.status()).toBe(409);

  await page.goto('/');
  await page.getByRole('navigation').getByRole('link', { name: 'Audit log' }).click();
  await expect(page).toHaveURL(/\/audit$/);
  await page.getByRole('searchbox', { name: 'Resource' }).fill(topic);
  await expect(page).toHaveURL(new RegExp(`resource=${topic}`));

  const table = page.getByRole('table', { name: 'Audit events' });
  const rows = table.getByRole('row').filter({ hasText: topic });
  await expect(rows).toHaveCount(2);
  // Newest first: the refused second create, then the first one.
  await expect(rows.nth(0)).toContainText('create-topic');
  await expect(rows.nth(0)).toContainText('TOPIC_ALREADY_EXISTS');
  await expect(rows.nth(1)).toContainText(CONSOLE_PRINCIPAL);
  await expect(rows.nth(1)).toContainText('create-topic');
  await expect(rows.nth(1)).toContainText('ok');
  await expect(rows.nth(1)).toContainText('partitions=2');

  await page.getByRole('combobox', { name: 'Outcome' }).selectOption('ok');
  await expect(page).toHaveURL(/outcome=ok/);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).not.toContainText('TOPIC_ALREADY_EXISTS');

  // The URL alone restores the filtered view.
  await page.goto(`/audit?resource=${topic}&outcome=failed`);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('TOPIC_ALREADY_EXISTS');
});
