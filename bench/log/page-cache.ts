import { open, rm } from 'node:fs/promises';
import { MIB } from './units';

const WRITE_BYTES = 8 * MIB;

/**
 * Leaves `bytes` of recently freed, host-backed memory for the page cache, just before a timed
 * write phase.
 *
 * Why: this sandbox is a VM whose balloon driver hands freed guest memory back to the host a couple
 * of seconds after it is freed (free page reporting). A page-cache write that lands on such memory
 * faults it back in from the host first, and buffered writes then run at ~350 MB/s instead of
 * ~3 GB/s. Which phase pays that depends on timing, not on the code measured, so without this the
 * floor and the log runs swing by 2× between runs. Writing a scratch file (never fsync'd, so with
 * delayed allocation it never reaches the disk) and deleting it at once leaves that memory resident
 * for the next writes. Bare-metal servers don't have the effect, so removing it measures the code
 * and the disk, not the hypervisor.
 */
export async function prefaultPageCache(scratchPath: string, bytes: number): Promise<void> {
  const chunk = Buffer.alloc(WRITE_BYTES, 0x5a);
  const handle = await open(scratchPath, 'w');
  try {
    for (let position = 0; position < bytes; position += chunk.length) {
      await handle.write(chunk, 0, chunk.length, position);
    }
  } finally {
    await handle.close();
    await rm(scratchPath, { force: true });
  }
}
