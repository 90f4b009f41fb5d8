import { expect, test } from '@playwright/test';
import protobuf from 'protobufjs';
import { seedTopic } from './support/sdk';

// Schema decoding against a real broker: a .proto schema uploaded on the topic page's Schemas tab
// decodes protobuf records (encoded here with protobufjs) on the server, and the message browser
// shows the decoded JSON in the table and, pretty-printed, in the opened record.

const PROTO = `syntax = "proto3";
package shop.v1;
message Order {
  int64 id = 1;
  string customer = 2;
  repeated string items = 3;
}`;

test('a protobuf value schema uploaded in the UI decodes the records in the message browser', async ({
  page,
}) => {
  const topic = `e2e-proto-${Date.now()}`;
  const type = protobuf.parse(PROTO).root.lookupType('shop.v1.Order');
  const encode = (value: Record<string, unknown>) =>
    Buffer.from(type.encode(type.fromObject(value)).finish());
  await seedTopic(topic, 1, [
    { key: 'o-1', value: encode({ id: 42, customer: 'ada', items: ['x-1', 'y-2'] }), partition: 0 },
    { key: 'o-2', value: Buffer.from([0x0a, 0x7f, 0x01]), partition: 0 },
  ]);

  await page.goto(`/topics/${topic}?tab=schemas`);
  // The first read of a just-created topic's page took over 10 s when two runs shared the two cores.
  await expect(page.getByRole('region', { name: 'Value schema' })).toContainText('None', { timeout: 30_000 });
  await page.getByLabel('Format').selectOption('protobuf');
  await page.getByLabel('Message type').fill('shop.v1.Order');
  await page.getByLabel('Schema', { exact: true }).fill(PROTO);
  await page.getByRole('button', { name: 'Upload schema' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'schema is stored' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Value schema' })).toContainText('shop.v1.Order');

  await page.goto(`/topics/${topic}/messages?decode=schema`);
  await expect(page.getByRole('status', { name: 'Search status' })).toContainText('Done');
  const table = page.getByRole('table', { name: 'Messages' });
  // protobufjs's toObject lists repeated fields first; 64-bit integers come as decimal text.
  await expect(table.locator('tbody tr').first()).toContainText(
    '{"items":["x-1","y-2"],"id":"42","customer":"ada"}',
  );
  await expect(table.locator('tbody tr').nth(1)).toContainText('<not decoded: not protobuf shop.v1.Order');

  await page.getByRole('button', { name: 'Open record 0:0' }).click();
  await expect(page.getByLabel('Decode as')).toHaveValue('schema');
  const value = page.getByRole('region', { name: 'Value' });
  await expect(value.locator('pre')).toHaveText(
    '{\n  "items": [\n    "x-1",\n    "y-2"\n  ],\n  "id": "42",\n  "customer": "ada"\n}',
  );

  await page.getByRole('button', { name: 'Open record 0:1' }).click();
  await expect(page.getByRole('region', { name: 'Value' })).toContainText('The schema did not decode it');
  await expect(page.getByRole('region', { name: 'Value' }).locator('pre')).toContainText('0a 7f 01');
});
