import { expect, test } from '@playwright/test';
import { Admin } from '@weir/protocol';
import { seedTopic, withClient } from './support/sdk';

// Invalid input is reported next to the field it concerns: checked in the browser with the
// gateway's own schema first, and errors the broker reports are mapped onto the same fields.

test('an invalid create-topic form shows field errors and sends nothing', async ({ page }) => {
  await page.goto('/topics');
  await page.getByRole('button', { name: 'Create topic' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create topic' });
  const name = dialog.getByLabel('Name', { exact: true });
  const partitions = dialog.getByLabel('Partitions');
  await name.fill('not a valid name!');
  await partitions.fill('0');
  await dialog.getByLabel('Custom configs').fill('retention.ms');
  await dialog.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(dialog.getByText('Line 1: expected name=value')).toBeVisible();

  await dialog.getByLabel('Custom configs').fill('');
  await dialog.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(name).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog.getByText('a topic name uses only letters')).toBeVisible();
  await expect(partitions).toHaveAttribute('aria-invalid', 'true');
  // The error is tied to the control, so assistive technology reads it with the field.
  const describedBy = await partitions.getAttribute('aria-describedby');
  expect(describedBy).toBeTruthy();
  await expect(page.locator(`[id="${describedBy!.split(' ')[0]}"]`)).toContainText('must be at least 1');
  await expect(dialog).toBeVisible();
});

test('a name that is taken is reported on the name field by the server', async ({ page }) => {
  const topic = `e2e-taken-${Date.now()}`;
  await seedTopic(topic, 1, []);
  await page.goto('/topics');
  await page.getByRole('button', { name: 'Create topic' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create topic' });
  await dialog.getByLabel('Name', { exact: true }).fill(topic);
  await dialog.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(dialog.getByText('A topic with this name already exists.')).toBeVisible();
  await expect(dialog.getByLabel('Name', { exact: true })).toHaveAttribute('aria-invalid', 'true');
});

test("a custom config the broker refuses is reported with the broker's reason and the key", async ({
  page,
}) => {
  const topic = `e2e-bad-config-${Date.now()}`;
  await page.goto('/topics');
  await page.getByRole('button', { name: 'Create topic' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create topic' });
  await dialog.getByLabel('Name', { exact: true }).fill(topic);
  await dialog.getByLabel('Custom configs').fill('retention.ms=abc');
  await dialog.getByRole('button', { name: 'Create', exact: true }).click();
  await expect(dialog).toContainText(
    'Invalid value abc for configuration retention.ms: Not a number of type LONG',
  );
  await expect(dialog).toBeVisible();
});

test('a produce form with an empty header key shows the error on that header', async ({ page }) => {
  const topic = `e2e-produce-form-${Date.now()}`;
  await seedTopic(topic, 1, []);
  await page.goto(`/topics/${topic}/produce`);
  const form = page.getByRole('form', { name: 'Produce' });
  await form.getByRole('button', { name: '+ Add header' }).click();
  await form.getByRole('button', { name: 'Produce', exact: true }).click();
  await expect(form.getByLabel('Header 1 key')).toHaveAttribute('aria-invalid', 'true');
  await expect(form.getByText('A header needs a key.')).toBeVisible();
});

test('a produce form refuses a value that is not Base64 on the Value field and writes nothing', async ({
  page,
}) => {
  const topic = `e2e-produce-base64-${Date.now()}`;
  await seedTopic(topic, 1, []);
  await page.goto(`/topics/${topic}/produce`);
  const form = page.getByRole('form', { name: 'Produce' });
  await form.getByLabel('Value encoding').selectOption('base64');
  const value = form.getByLabel('Value', { exact: true });
  await value.fill('aGVsbG8gd29ybGQ!');
  await form.getByRole('button', { name: 'Produce', exact: true }).click();
  await expect(value).toHaveAttribute('aria-invalid', 'true');
  await expect(form.getByText('"!" at character 16 is not in the Base64 alphabet')).toBeVisible();

  // Once the text is Base64 the record is written, and it is the partition's first: nothing was
  // stored by the refused attempt.
  await value.fill('aGVsbG8gd29ybGQ=');
  await form.getByRole('button', { name: 'Produce', exact: true }).click();
  await expect(form.getByRole('status')).toContainText('Produced to partition 0 at offset 0.');
});

test('an offset reset past the end previews a warning per partition and marks the lines kept at the end', async ({
  page,
}) => {
  const topic = `e2e-reset-beyond-${Date.now()}`;
  const groupId = `${topic}-group`;
  await seedTopic(topic, 1, [{ value: 'a' }, { value: 'b' }]);
  // An empty group with a committed offset, as a consumer that stopped leaves it.
  await withClient((client) => new Admin(client).resetOffsets(groupId, 'earliest', { topics: [topic] }));

  await page.goto(`/groups/${groupId}`);
  const panel = page.getByRole('region', { name: 'Reset offsets' });
  await panel.getByLabel('Reset to').selectOption('offset');
  await panel.getByLabel('Offset', { exact: true }).fill('99');
  await panel.getByRole('button', { name: 'Preview' }).click();
  const warnings = panel.getByRole('list', { name: 'Reset warnings' });
  await expect(warnings).toHaveText(`${topic}-0: offset 99 is past the log end, so would be set to 2`);
  const line = panel.getByRole('table', { name: 'Reset preview' }).locator('tbody tr');
  await expect(line).toContainText('log end');
  await expect(line.getByTitle('Asked for 99')).toBeVisible();
});
