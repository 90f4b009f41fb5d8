import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { UsageError } from './usage-error';

/** Where `produce` reads its lines from. */
export interface ProduceInput {
  stream: Readable;
  /** Known for files (for the progress line), not for stdin. */
  sizeBytes: number | undefined;
}

/**
 * Opens `--file` for reading, checking it up front so a wrong path fails as a usage error naming
 * the flag, before any connection is made.
 */
export async function openInputFile(path: string): Promise<ProduceInput> {
  try {
    const info = await stat(path);
    if (!info.isFile()) throw new Error('not a regular file');
    const stream = createReadStream(path);
    // Opening can still fail (permissions); wait for it so that failure is reported the same way.
    await new Promise<void>((resolve, reject) => {
      stream.once('open', () => resolve());
      stream.once('error', reject);
    });
    return { stream, sizeBytes: info.size };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new UsageError(`--file: cannot read "${path}": ${reason}`);
  }
}
