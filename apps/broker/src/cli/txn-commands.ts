import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { Admin, Client, InternalAdmin, parseBrokerAddress } from '@weir/protocol';
import { confirmByTyping } from './confirm-by-typing';
import type { InternalListenerFlags } from './register-txn-commands';
import { reportClientError } from './report-client-error';
import { formatTable } from './table';
import { UsageError } from './usage-error';

/** The user did not confirm, so nothing was done: a failure, so scripts do not carry on as if aborted. */
const EXIT_NOT_CONFIRMED = 1;

/** A connection to the internal listener with the two admins the txn commands use. */
export interface InternalSession {
  admin: Admin;
  internal: InternalAdmin;
}

interface Out {
  stdout: Writable;
}

/**
 * The internal listener's token: `--token`, else the contents of `--token-file`, else of
 * `<data-dir>/internal-listener.token` (where a broker without a configured token generates it).
 */
export async function internalToken(flags: InternalListenerFlags): Promise<string> {
  if (flags.token !== undefined) {
    if (flags.token.trim() === '') throw new UsageError('--token must not be empty');
    return flags.token;
  }
  const path = flags.tokenFile ?? join(flags.dataDir ?? './data', 'internal-listener.token');
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? String(error);
    throw new UsageError(
      `cannot read the internal listener token from ${path} (${reason}); give --token-file, --data-dir or --token`,
    );
  }
  // The broker writes the token alone; a trailing newline from an editor is not part of it.
  const token = text.trim();
  if (token === '') throw new UsageError(`the token file ${path} is empty`);
  return token;
}

/**
 * Runs a txn command against the internal listener: authenticates with the token, runs `work`,
 * closes the client, and turns failures into an exit status with a message on stderr.
 */
export async function withInternalSession(
  flags: InternalListenerFlags,
  deps: { stderr: Writable },
  work: (session: InternalSession) => Promise<number | undefined>,
): Promise<number> {
  let client: Client | undefined;
  try {
    try {
      parseBrokerAddress(flags.internal);
    } catch {
      throw new UsageError(`--internal: "${flags.internal}" is not host:port with a port in 1..65535`);
    }
    const token = await internalToken(flags);
    client = new Client({
      bootstrapServers: [flags.internal],
      clientId: 'weir-cli',
      sasl: { mechanism: 'WEIR-TOKEN', token },
    });
    return (await work({ admin: new Admin(client), internal: new InternalAdmin(client) })) ?? 0;
  } catch (error) {
    return reportClientError(error, deps.stderr);
  } finally {
    await client?.close();
  }
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
  session: InternalSession,
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
