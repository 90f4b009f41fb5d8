import { describe, expect, it } from 'vitest';
import { KeyedSerialQueue } from './keyed-serial-queue';

describe('KeyedSerialQueue', () => {
  it('runs tasks of one key one at a time in arrival order, other keys alongside', async () => {
    const queue = new KeyedSerialQueue();
    const events: string[] = [];
    let releaseFirst!: () => void;
    const first = queue.run('a', async () => {
      events.push('a1 start');
      await new Promise<void>((resolve) => {
        releaseFirst = resolve;
      });
      events.push('a1 end');
    });
    const second = queue.run('a', async () => {
      events.push('a2');
    });
    const other = queue.run('b', async () => {
      events.push('b1');
    });
    await other;
    expect(events).toEqual(['a1 start', 'b1']);
    releaseFirst();
    await Promise.all([first, second]);
    expect(events).toEqual(['a1 start', 'b1', 'a1 end', 'a2']);
  });

  it('keeps going after a task fails, and hands the failure to its caller only', async () => {
    const queue = new KeyedSerialQueue();
    const failed = queue.run('a', async () => {
      throw new Error('boom');
    });
    const next = queue.run('a', async () => 'ok');
    await expect(failed).rejects.toThrow('boom');
    expect(await next).toBe('ok');
  });
});
