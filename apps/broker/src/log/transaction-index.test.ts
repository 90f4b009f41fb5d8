import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { temporaryDirectory } from '../../test/log-fixtures';
import { FileHandleCache } from './file-handle-cache';
import { createStorageIo } from './storage';
import { type AbortedTransaction, TransactionIndex, TXN_INDEX_ENTRY_BYTES } from './transaction-index';

describe('TransactionIndex', () => {
  let directory: { path: string; cleanup: () => Promise<void> };
  let handles: FileHandleCache;
  const io = createStorageIo();
  const path = () => join(directory.path, '00000000000000000100.txnindex');
  const open = () => new TransactionIndex(handles, io, path(), 100);

  beforeEach(async () => {
    directory = await temporaryDirectory();
    handles = new FileHandleCache(io, 16);
  });
  afterEach(async () => {
    await handles.closeAll();
    await directory.cleanup();
  });

  const entries: AbortedTransaction[] = [
    { producerId: 7, firstOffset: 90, lastOffset: 104, lastStableOffset: 95 },
    { producerId: 8, firstOffset: 95, lastOffset: 110, lastStableOffset: 111 },
    { producerId: 7, firstOffset: 120, lastOffset: 130, lastStableOffset: 131 },
  ];

  it("writes Kafka's 34-byte entries and reads them back", async () => {
    const index = open();
    await index.create();
    for (const entry of entries) index.append(entry);
    await index.writePending();
    await index.sync();
    const bytes = await readFile(path());
    expect(bytes.length).toBe(3 * TXN_INDEX_ENTRY_BYTES);
    // version 0, producer id 7, first offset 90, marker 104, LSO 95.
    expect(bytes.readInt16BE(0)).toBe(0);
    expect(bytes.readBigInt64BE(2)).toBe(7n);
    expect(bytes.readBigInt64BE(10)).toBe(90n);
    expect(bytes.readBigInt64BE(18)).toBe(104n);
    expect(bytes.readBigInt64BE(26)).toBe(95n);

    const reloaded = open();
    expect(await reloaded.load(200)).toBe(true);
    expect(reloaded.entries).toEqual(entries);
  });

  it('appends only the new entries and cuts the file on truncation', async () => {
    const index = open();
    await index.create();
    index.append(entries[0]!);
    await index.writePending();
    index.append(entries[1]!);
    index.append(entries[2]!);
    await index.writePending();
    expect((await readFile(path())).length).toBe(3 * TXN_INDEX_ENTRY_BYTES);
    await index.truncateTo(110);
    expect(index.entries).toEqual([entries[0]]);
    expect((await readFile(path())).length).toBe(TXN_INDEX_ENTRY_BYTES);
  });

  it('collects the aborted transactions overlapping a range and says when the search is complete', async () => {
    const index = open();
    await index.create();
    for (const entry of entries) index.append(entry);
    // [100, 105): the first two overlap; the first entry's LSO (95) is below the bound, the second's
    // (111) reaches it, so no later marker can matter.
    expect(index.collect(100, 105)).toEqual({ aborted: entries.slice(0, 2), complete: true });
    // Past the second marker only the third transaction overlaps, and it ends the search.
    expect(index.collect(111, 200)).toEqual({ aborted: [entries[2]], complete: false });
    expect(index.collect(125, 131)).toEqual({ aborted: [entries[2]], complete: true });
    expect(index.collect(131, 200)).toEqual({ aborted: [], complete: false });
  });

  it('refuses entries out of order or outside the segment', () => {
    const index = open();
    index.reset();
    index.append(entries[1]!);
    expect(() => index.append(entries[0]!)).toThrow(/marker 104 after 110/);
    expect(() =>
      index.append({ producerId: 1, firstOffset: 10, lastOffset: 50, lastStableOffset: 51 }),
    ).toThrow(/below the segment base/);
    expect(() =>
      index.append({ producerId: 1, firstOffset: 150, lastOffset: 140, lastStableOffset: 141 }),
    ).toThrow(/offsets 150..140/);
  });

  it('fails to load a missing, torn or inconsistent file', async () => {
    expect(await open().load(200)).toBe(false);
    const index = open();
    await index.create();
    for (const entry of entries) index.append(entry);
    await index.writePending();
    const bytes = await readFile(path());
    await writeFile(path(), bytes.subarray(0, bytes.length - 5));
    expect(await open().load(200)).toBe(false);
    // Markers going backwards.
    await writeFile(path(), Buffer.concat([bytes.subarray(34, 68), bytes.subarray(0, 34)]));
    expect(await open().load(200)).toBe(false);
    // A marker past the segment's end.
    await writeFile(path(), bytes);
    expect(await open().load(120)).toBe(false);
    expect(await open().load(131)).toBe(true);
  });
});
