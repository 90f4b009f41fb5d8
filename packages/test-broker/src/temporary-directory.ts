import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A fresh directory under the system's temporary directory, and the way to remove it. */
export interface TemporaryDirectory {
  readonly path: string;
  /** Removes the directory and everything in it; stop whatever writes into it first. */
  cleanup(): Promise<void>;
}

export async function temporaryDirectory(prefix: string): Promise<TemporaryDirectory> {
  const path = await mkdtemp(join(tmpdir(), prefix));
  return { path, cleanup: () => rm(path, { recursive: true, force: true }) };
}
