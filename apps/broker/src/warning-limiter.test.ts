import { Writable } from 'node:stream';
import { Counter, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { ManualScheduler } from '../test/group-fixtures';
import { createLogger } from './logger';
import { WarningLimiter } from './warning-limiter';

function limiterWithLines() {
  const text: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text.push(chunk.toString());
      done();
    },
  });
  const registers = [new Registry()];
  const counters = {
    warningsTotal: new Counter({ name: 'w_total', help: 'w', labelNames: ['kind'] as const, registers }),
    warningsSuppressedTotal: new Counter({
      name: 's_total',
      help: 's',
      labelNames: ['kind'] as const,
      registers,
    }),
  };
  const scheduler = new ManualScheduler();
  const limiter = new WarningLimiter({ maxPerInterval: 2, intervalMs: 10_000 }, counters, scheduler);
  const logger = createLogger({ level: 'info', pretty: false, destination });
  const messages = () =>
    text
      .join('')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => (JSON.parse(line) as { msg: string }).msg);
  return { limiter, logger, scheduler, messages, counters };
}

describe('WarningLimiter', () => {
  it('writes the first lines of an interval per kind and sums the rest into one line', async () => {
    const { limiter, logger, scheduler, messages, counters } = limiterWithLines();
    for (let index = 0; index < 5; index++) limiter.warn('a', logger, {}, `a${index}`);
    limiter.warn('b', logger, {}, 'b0');
    expect(messages()).toEqual(['a0', 'a1', 'b0']);
    scheduler.advance(10_000);
    expect(messages()).toEqual(['a0', 'a1', 'b0', 'suppressed 3 similar warnings in the last 10 s']);
    limiter.warn('a', logger, {}, 'a5');
    expect(messages().at(-1)).toBe('a5');
    expect((await counters.warningsTotal.get()).values.map((value) => value.value)).toEqual([6, 1]);
    expect((await counters.warningsSuppressedTotal.get()).values.map((value) => value.value)).toEqual([3]);
  });

  it('writes the open summaries on flush, and none for a kind that suppressed nothing', () => {
    const { limiter, logger, messages } = limiterWithLines();
    for (let index = 0; index < 3; index++) limiter.warn('a', logger, {}, `a${index}`);
    limiter.warn('b', logger, {}, 'b0');
    limiter.flush();
    expect(messages()).toEqual(['a0', 'a1', 'b0', 'suppressed 1 similar warnings in the last 10 s']);
  });
});
