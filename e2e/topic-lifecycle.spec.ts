import { expect, test } from '@playwright/test';
import { startGroupMember } from './support/sdk';

// The operator's round trip through the UI, with a real application consuming through the SDK:
// create a topic → produce → find the record by key → a group consumes it → lag goes to 0 →
// reset offsets with a preview → delete the topic by typing its name.

test('create, produce, find, consume, watch lag, reset offsets and delete a topic', async ({ page }) => {
  test.setTimeout(120_000);
  const topic = `e2e-flow-${Date.now()}`;
  const groupId = `${topic}-readers`;

  await test.step('create the topic from the list', async () => {
    await page.goto('/topics');
    await page.getByRole('button', { name: 'Create topic' }).click();
    const dialog = page.getByRole('dialog', { name: 'Create topic' });
    await dialog.getByLabel('Name', { exact: true }).fill(topic);
    await dialog.getByLabel('Partitions').fill('2');
    await dialog.getByRole('button', { name: 'Create', exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`/topics/${topic}$`));
    await expect(page.getByRole('heading', { level: 1, name: topic })).toBeVisible();
    await expect(page.getByRole('table', { name: 'Partitions' }).getByRole('row')).toHaveCount(3);
  });

  await test.step('produce two records from the UI, one with duplicate headers', async () => {
    await page.getByRole('link', { name: 'Produce' }).click();
    const form = page.getByRole('form', { name: 'Produce' });
    await form.getByLabel('Key', { exact: true }).fill('order-42');
    await form.getByLabel('Value', { exact: true }).fill('{"id":42,"status":"paid"}');
    for (const [index, value] of ['a', 'b'].entries()) {
      await form.getByRole('button', { name: '+ Add header' }).click();
      await form.getByLabel(`Header ${index + 1} key`).fill('trace');
      await form.getByLabel(`Header ${index + 1} value`).fill(value);
    }
    await form.getByRole('button', { name: 'Produce', exact: true }).click();
    await expect(form.getByRole('status')).toContainText('Produced to partition');

    await form.getByLabel('Key', { exact: true }).fill('order-7');
    await form.getByLabel('Value', { exact: true }).fill('{"id":7}');
    await form.getByRole('button', { name: 'Produce', exact: true }).click();
    await expect(form.getByRole('status')).toContainText(/Produced to partition \d at offset \d/);
  });

  await test.step('find the record by key with a server-side filter', async () => {
    await page.goto(`/topics/${topic}/messages`);
    await page.getByRole('button', { name: '+ Add filter' }).click();
    await page.getByLabel('Filter 1 field').selectOption('key');
    await page.getByLabel('Filter 1 operator').selectOption('equals');
    await page.getByLabel('Filter 1 text').fill('order-42');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expect(page).toHaveURL(/f=key(:|%3A)equals(:|%3A)order-42/);
    await expect(page.getByRole('status', { name: 'Search status' })).toContainText('Done');
    const rows = page.getByRole('table', { name: 'Messages' }).locator('tbody tr');
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toContainText('order-42');

    await rows
      .first()
      .getByRole('button', { name: /Open record/ })
      .click();
    await page.getByLabel('Decode as').selectOption('json');
    await expect(page.getByRole('region', { name: 'Value' })).toContainText('"status": "paid"');
    const headers = page.getByRole('table', { name: 'Headers' }).getByRole('row');
    await expect(headers).toHaveCount(2);
    await expect(headers.nth(0)).toContainText('a');
    await expect(headers.nth(1)).toContainText('b');
    // The open record and the decoder are part of the link, so a reload shows the same thing.
    await page.reload();
    await expect(page.getByRole('region', { name: 'Value' })).toContainText('"status": "paid"');
  });

  const member = await startGroupMember(groupId, topic);
  try {
    await test.step('a group commits nothing yet, so its lag is every record', async () => {
      await member.commitAt([
        { partition: 0, offset: 0n },
        { partition: 1, offset: 0n },
      ]);
      await page.goto(`/groups/${groupId}`);
      await expect(page.getByTestId('total-lag')).toHaveText('2');
      await expect(page.getByRole('table', { name: 'Members' }).locator('tbody tr')).toHaveCount(1);
      await expect(page.getByRole('region', { name: 'Reset offsets' }).getByRole('note')).toBeVisible();
    });

    await test.step('the group consumes through the SDK and the page shows lag 0', async () => {
      expect(await member.drain(2)).toBe(2);
      await expect(page.getByTestId('total-lag')).toHaveText('0', { timeout: 15_000 });
    });
  } finally {
    await member.close();
  }

  await test.step('once empty, offsets are reset to earliest after a preview', async () => {
    await expect(page.getByRole('region', { name: 'Reset offsets' }).getByRole('note')).toHaveCount(0, {
      timeout: 15_000,
    });
    const panel = page.getByRole('region', { name: 'Reset offsets' });
    await panel.getByLabel('Reset to').selectOption('earliest');
    await panel.getByRole('button', { name: 'Preview' }).click();
    const preview = panel.getByRole('table', { name: 'Reset preview' });
    await expect(preview.locator('tbody tr')).toHaveCount(2);
    await expect(panel.getByRole('status')).toContainText('Nothing has been committed yet');
    await panel.getByRole('button', { name: 'Apply reset' }).click();
    await expect(panel.getByRole('status')).toContainText('Offsets reset for 2 partition(s)');
    await expect(page.getByTestId('total-lag')).toHaveText('2', { timeout: 15_000 });
  });

  await test.step('delete the topic by typing its name', async () => {
    await page.goto(`/topics/${topic}`);
    await page.getByRole('button', { name: 'Delete topic' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete topic' });
    const confirm = dialog.getByRole('button', { name: 'Delete topic' });
    await expect(confirm).toBeDisabled();
    await dialog.getByLabel(`Type "${topic}" to confirm`).fill(topic.slice(0, -1));
    await expect(confirm).toBeDisabled();
    await dialog.getByLabel(`Type "${topic}" to confirm`).fill(topic);
    await confirm.click();
    await expect(page).toHaveURL(/\/topics$/);
    await page.getByRole('searchbox', { name: 'Search topics' }).fill(topic);
    await expect(page.getByRole('table', { name: 'Topics' })).toContainText(`No topic matches "${topic}"`);
  });
});
