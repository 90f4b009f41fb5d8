import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { readClusterInfo } from './e2e-cluster';

const run = promisify(execFile);

/** How long one kcat run may take before the spec fails instead of hanging. */
const KCAT_TIMEOUT_MS = 30_000;

/**
 * Produces `values` (one record each, in order) to one partition with kcat (Debian's, librdkafka),
 * a client of its own on the test broker's client listener; resolves once kcat has exited, after
 * the broker acknowledged them.
 */
export async function kcatProduce(
  topic: string,
  partition: number,
  values: readonly string[],
): Promise<void> {
  const child = run(
    'kcat',
    [
      '-b',
      readClusterInfo().bootstrap,
      '-X',
      'broker.address.family=v4',
      '-P',
      '-t',
      topic,
      '-p',
      String(partition),
    ],
    { timeout: KCAT_TIMEOUT_MS },
  );
  child.child.stdin!.end(values.map((value) => `${value}\n`).join(''));
  await child;
}
