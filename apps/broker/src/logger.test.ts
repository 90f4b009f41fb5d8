import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { connectionLogger, createLogger, partitionLogger } from './logger';

/** A destination that keeps what is written, optionally claiming to be a terminal. */
function capture(isTTY = false): Writable & { isTTY: boolean; text: () => string } {
  const chunks: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      chunks.push(chunk.toString());
      done();
    },
  });
  return Object.assign(stream, { isTTY, text: () => chunks.join('') });
}

describe('createLogger', () => {
  it('writes JSON lines with a textual level, an ISO time and the child bindings', () => {
    const destination = capture();
    const logger = createLogger({ level: 'info', destination, bindings: { nodeId: 3 } });
    partitionLogger(logger, 'orders', 2).info({ offset: 7 }, 'appended');
    connectionLogger(logger, 12, '127.0.0.1:5000').debug('not at this level');
    const lines = destination.text().trim().split('\n');
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0] ?? '');
    expect(line).toMatchObject({
      level: 'info',
      nodeId: 3,
      topic: 'orders',
      partition: 2,
      offset: 7,
      msg: 'appended',
    });
    expect(new Date(line.time).toISOString()).toBe(line.time);
  });

  it('is pretty on a terminal unless told otherwise, and pretty when told on a pipe', () => {
    const terminal = capture(true);
    createLogger({ level: 'info', destination: terminal }).info('hello');
    expect(terminal.text()).toContain('INFO');
    expect(() => JSON.parse(terminal.text())).toThrow();

    const forcedJson = capture(true);
    createLogger({ level: 'info', pretty: false, destination: forcedJson }).info('hello');
    expect(JSON.parse(forcedJson.text())).toMatchObject({ msg: 'hello' });

    const forcedPretty = capture(false);
    createLogger({ level: 'info', pretty: true, destination: forcedPretty }).info('hello');
    expect(forcedPretty.text()).toMatch(/INFO.*hello/);
  });
});
