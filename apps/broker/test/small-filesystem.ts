import { execFile } from 'node:child_process';
import { mkdtemp, open, rm, statfs, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * A real, small file system (a tmpfs of `sizeBytes`) mounted on a temporary directory, so a test
 * can run the broker out of disk space for real: writes fail with ENOSPC part-way, as on a full
 * disk. The test fills it with {@link fillLeaving}, frees it with {@link free}, and unmounts it.
 */
export interface SmallFilesystem {
  readonly path: string;
  /** Bytes still free for files now. */
  availableBytes(): Promise<number>;
  /** Writes a filler file so that about `bytes` stay free. */
  fillLeaving(bytes: number): Promise<void>;
  /** Removes the filler file. */
  free(): Promise<void>;
  /** Unmounts the file system and removes its mount point. */
  unmount(): Promise<void>;
}

const FILLER = 'filler.bin';

/**
 * Mounts a tmpfs, or says why it could not: mounting needs root (or CAP_SYS_ADMIN), so where the
 * tests are not allowed to, they are skipped with that reason instead of failing.
 */
export async function mountSmallFilesystem(
  sizeBytes: number,
): Promise<{ mounted: SmallFilesystem } | { skipReason: string }> {
  const path = await mkdtemp(join(tmpdir(), 'weir-small-fs-'));
  try {
    await run('mount', ['-t', 'tmpfs', '-o', `size=${sizeBytes}`, 'tmpfs', path]);
  } catch (error) {
    await rm(path, { recursive: true, force: true });
    const reason = (error as { stderr?: string }).stderr?.trim() || String(error);
    return { skipReason: `cannot mount a tmpfs here (${reason})` };
  }
  const filler = join(path, FILLER);
  const availableBytes = async () => {
    const stats = await statfs(path);
    return stats.bavail * stats.bsize;
  };
  return {
    mounted: {
      path,
      availableBytes,
      async fillLeaving(bytes) {
        const fillBytes = (await availableBytes()) - bytes;
        if (fillBytes <= 0) return;
        const file = await open(filler, 'a');
        try {
          await file.write(Buffer.alloc(fillBytes));
        } finally {
          await file.close();
        }
      },
      async free() {
        await unlink(filler).catch(() => undefined);
      },
      async unmount() {
        // A test that failed half-way may leave a file open there; a lazy unmount still detaches it
        // now (the kernel frees it once that file closes), so no mount outlives the test run.
        await run('umount', [path]).catch(() => run('umount', ['-l', path]));
        await rm(path, { recursive: true, force: true });
      },
    },
  };
}
