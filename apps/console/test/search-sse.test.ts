import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { handleTrpcRequest } from '../src/server/api/http';
import { type GatewayFixture, startGateway } from './gateway-fixture';

vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 });

let gateway: GatewayFixture;

beforeAll(async () => {
  gateway = await startGateway();
  await gateway.caller.topics.create({ name: 'streamed', partitions: 2 });
  for (let index = 0; index < 6; index++) {
    await gateway.caller.messages.produce({
      topic: 'streamed',
      partition: index % 2,
      value: { encoding: 'utf8', data: `s${index}` },
    });
  }
});
afterAll(async () => {
  await gateway?.dispose();
});

describe('messages.search over SSE', () => {
  it('streams phase, progress, rows and done events to an HTTP client', async () => {
    const input = encodeURIComponent(
      JSON.stringify({ topic: 'streamed', start: 'beginning', pageSize: 100 }),
    );
    const controller = new AbortController();
    const response = await handleTrpcRequest(
      new Request(`http://console.test/api/trpc/messages.search?input=${input}`, {
        signal: controller.signal,
      }),
      gateway.services,
    );
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    while (!text.includes('"type":"done"')) {
      const { value, done } = await reader.read();
      if (done) break;
      text += value;
    }
    controller.abort();
    await reader.cancel().catch(() => {});
    const types = [...text.matchAll(/"type":"(\w+)"/g)].map((match) => match[1]);
    expect(types[0]).toBe('phase');
    expect(types).toContain('progress');
    expect(types).toContain('rows');
    expect(types.at(-1)).toBe('done');
    expect((text.match(/"offset":"/g) ?? []).length).toBe(6);
  });
});
