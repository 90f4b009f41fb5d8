import type { Readable, Writable } from 'node:stream';
import type { Admin } from '@weir/protocol';
import { confirmByTyping } from './confirm-by-typing';
import type { InternalSession } from './internal-session';
import { formatTable } from './table';
import { UsageError } from './usage-error';

/** The user did not confirm, so nothing was done: a failure, so scripts do not carry on as if aborted. */
const EXIT_NOT_CONFIRMED = 1;

interface Out {
  stdout: Writable;
}

/** `weir txn list`: every transactional id the coordinators know, sorted by id. */
export async function txnListCommand(admin: Admin, out: Out): Promise<undefined> {
  const listed = await admin.listTransactions();
  const rows = listed.map((entry) => [entry.transactionalId, String(entry.producerId), entry.state]);
  out.stdout.write(formatTable(['TRANSACTIONAL-ID', 'PRODUCER-ID', 'STATE'], rows));
}

/** `weir txn describe <id>`: the coordinator's state of one transactional id and its partitions. */
export async function txnDescribeCommand(
  admin: Admin,
  options: { transactionalId: string },
  out: Out,
): Promise<undefined> {
  const [description] = await admin.describeTransactions([options.transactionalId]);
  const { transactionalId, state, producerId, producerEpoch, timeoutMs, startTimeMs, partitions } =
    description!;
  const started = startTimeMs < 0n ? '-' : new Date(Number(startTimeMs)).toISOString();
  out.stdout.write(
    `Transactional id: ${transactionalId}  State: ${state}  Producer id: ${producerId}  Epoch: ${producerEpoch}\n` +
      `Timeout: ${timeoutMs} ms  Started: ${started}  Partitions: ${partitions.length}\n`,
  );
  if (partitions.length === 0) return;
  const rows = [...partitions]
    .sort((a, b) => (a.topic < b.topic ? -1 : a.topic > b.topic ? 1 : a.partition - b.partition))
    .map((entry) => [entry.topic, String(entry.partition)]);
  out.stdout.write(formatTable(['TOPIC', 'PARTITION'], rows));
}

export interface TxnAbortDeps {
  stdin: Readable & { isTTY?: boolean };
  stdout: Writable;
  stderr: Writable;
}

/**
 * `weir txn abort <id> --reason <text>`: an operator's abort of a (hanging) transaction. Its
 * records become invisible for good and the producer is fenced, so without `--yes` it asks the
 * user to type the id on a terminal, and refuses when nobody can be asked (a script or a pipe).
 */
export async function txnAbortCommand(
  session: Pick<InternalSession, 'admin' | 'internal'>,
  options: { transactionalId: string; reason: string; yes: boolean },
  deps: TxnAbortDeps,
): Promise<number | undefined> {
  const { transactionalId } = options;
  if (!options.yes) {
    if (deps.stdin.isTTY !== true) {
      throw new UsageError(
        `refusing to abort transaction "${transactionalId}" without --yes (stdin is not a terminal to confirm on)`,
      );
    }
    // Fails here for an unknown id rather than after asking about it; shows what will be aborted.
    const [description] = await session.admin.describeTransactions([transactionalId]);
    const partitions = description!.partitions.map((entry) => `${entry.topic}-${entry.partition}`);
    const confirmed = await confirmByTyping(
      `Aborting transaction "${transactionalId}" (${description!.state}, producer ${description!.producerId}, ` +
        `partitions: ${partitions.join(' ') || 'none'}) discards its records and fences its producer. ` +
        'Type the transactional id to confirm: ',
      transactionalId,
      { input: deps.stdin, output: deps.stderr },
    );
    if (!confirmed) {
      deps.stderr.write(`Transaction "${transactionalId}" was not aborted.\n`);
      return EXIT_NOT_CONFIRMED;
    }
  }
  await session.internal.abortTransaction(transactionalId, options.reason);
  deps.stdout.write(`Aborted transaction "${transactionalId}".\n`);
}
