import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { temporaryDirectory } from '../../../test/log-fixtures';
import {
  LOG_SUFFIX,
  OFFSET_INDEX_SUFFIX,
  offsetFileName,
  TIME_INDEX_SUFFIX,
  TXN_INDEX_SUFFIX,
} from '../log-files';
import { createStorageIo } from '../storage';
import { CLEANING_DIRECTORY, recoverInterruptedClean, SWAP_MANIFEST_FILE } from './cleaning-files';

/**
 * The swap's recovery rule at the step where the new segment's indexes have moved in and its log
 * file has not: the moved-in indexes are the new segment's and stay, the log moves in, and the
 * second replaced segment (already renamed .deleted by step 2) is left to the loader.
 */
describe('recoverInterruptedClean', () => {
  let directory: { path: string; cleanup: () => Promise<void> };

  beforeEach(async () => {
    directory = await temporaryDirectory();
  });
  afterEach(async () => {
    await directory.cleanup();
  });

  it('keeps the indexes that moved in before the log file and moves the log in', async () => {
    const partition = directory.path;
    const cleaning = join(partition, CLEANING_DIRECTORY);
    await mkdir(cleaning);
    const name = offsetFileName;
    await writeFile(
      join(partition, SWAP_MANIFEST_FILE),
      JSON.stringify({ baseOffset: 0, replacedBaseOffsets: [0, 40] }),
    );
    for (const suffix of [OFFSET_INDEX_SUFFIX, TIME_INDEX_SUFFIX, TXN_INDEX_SUFFIX]) {
      await writeFile(join(partition, name(0, suffix)), `new${suffix}`);
      await writeFile(join(partition, `${name(0, suffix)}.deleted`), `old${suffix}`);
    }
    await writeFile(join(partition, `${name(0, LOG_SUFFIX)}.deleted`), 'old.log');
    await writeFile(join(cleaning, name(0, LOG_SUFFIX)), 'new.log');

    expect(await recoverInterruptedClean(createStorageIo(), partition)).toBe('completed');
    for (const suffix of [OFFSET_INDEX_SUFFIX, TIME_INDEX_SUFFIX, TXN_INDEX_SUFFIX, LOG_SUFFIX]) {
      expect(await readFile(join(partition, name(0, suffix)), 'utf8')).toBe(`new${suffix}`);
    }
    const left = await readdir(partition);
    expect(left).not.toContain(SWAP_MANIFEST_FILE);
    expect(left).not.toContain(CLEANING_DIRECTORY);
  });

  it('deletes an old namesake whose new file is still in cleaning/', async () => {
    const partition = directory.path;
    const cleaning = join(partition, CLEANING_DIRECTORY);
    await mkdir(cleaning);
    const log = offsetFileName(0, LOG_SUFFIX);
    await writeFile(
      join(partition, SWAP_MANIFEST_FILE),
      JSON.stringify({ baseOffset: 0, replacedBaseOffsets: [0] }),
    );
    // Step 2 had not renamed the old log yet.
    await writeFile(join(partition, log), 'old.log');
    await writeFile(join(cleaning, log), 'new.log');
    expect(await recoverInterruptedClean(createStorageIo(), partition)).toBe('completed');
    expect(await readFile(join(partition, log), 'utf8')).toBe('new.log');
  });
});
