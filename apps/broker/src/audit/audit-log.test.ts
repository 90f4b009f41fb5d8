import { appendFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { temporaryDirectory } from '../../test/log-fixtures';
import { createStorageIo } from '../log/storage';
import type { NewAuditEvent } from './audit-event';
import { AuditLog } from './audit-log';

const MINUTE_MS = 60_000;

function event(resourceName: string, atMs: number, outcomeCode = 0): NewAuditEvent {
  return {
    atMs,
    principal: 'User:alice',
    clientId: 'unit',
    clientHost: '127.0.0.1',
    listener: 'client',
    action: 'create-topic',
    resourceType: 'topic',
    resourceName,
    input: { partitions: 1 },
    outcomeCode,
  };
}

describe('the audit log file', () => {
  let directory: { path: string; cleanup: () => Promise<void> };
  let nowMs = 100 * MINUTE_MS;
  const open = async (retention = { maxEvents: 50, retentionMs: 10 * MINUTE_MS }) => {
    const log = new AuditLog(createStorageIo(), directory.path, 3, retention, () => nowMs);
    await log.open();
    return log;
  };
  const names = (log: AuditLog) => log.list({ limit: 100 }).events.map((stored) => stored.resourceName);
  const fileLines = async () =>
    (await readFile(join(directory.path, 'audit-log.jsonl'), 'utf8'))
      .split('\n')
      .filter((line) => line !== '');

  beforeEach(async () => {
    directory = await temporaryDirectory('weir-audit-');
  });
  afterEach(async () => {
    await directory.cleanup();
  });

  it('drops a torn last line at open and appends after the whole ones', async () => {
    const log = await open();
    await log.append([event('a', nowMs), event('b', nowMs)]);
    await log.close();
    // A crash in the middle of an append leaves half a line.
    await appendFile(join(directory.path, 'audit-log.jsonl'), '{"id":"0000');
    const reopened = await open();
    expect(names(reopened)).toEqual(['b', 'a']);
    await reopened.append([event('c', nowMs)]);
    await reopened.close();
    expect((await fileLines()).map((line) => JSON.parse(line).resourceName)).toEqual(['a', 'b', 'c']);
    expect(names(await open())).toEqual(['c', 'b', 'a']);
  });

  it('keeps ids growing and sorted by time even when the clock steps back', async () => {
    const log = await open();
    await log.append([event('later', nowMs)]);
    await log.append([event('clock-back', nowMs - MINUTE_MS)]);
    const [newest, older] = log.list({ limit: 10 }).events;
    expect(newest!.resourceName).toBe('clock-back');
    expect(newest!.id > older!.id).toBe(true);
    expect(newest!.id).toMatch(/^\d{15}-0000000003-\d{12}$/);
    await log.close();
  });

  it('forgets events older than the retention, in the list at once and in the file at the next open', async () => {
    const log = await open();
    await log.append([event('old', nowMs)]);
    nowMs += 5 * MINUTE_MS;
    await log.append([event('recent', nowMs, 36)]);
    nowMs += 6 * MINUTE_MS;
    expect(names(log)).toEqual(['recent']);
    expect(log.list({ limit: 10, outcome: 'failed' }).events).toHaveLength(1);
    expect(log.list({ limit: 10, outcome: 'ok' }).events).toHaveLength(0);
    await log.close();
    const reopened = await open();
    expect(names(reopened)).toEqual(['recent']);
    expect(await fileLines()).toHaveLength(1);
    await reopened.close();
  });
});
