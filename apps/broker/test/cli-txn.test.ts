import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { Admin, Client, ErrorCode, type InternalAdmin, TransactionalProducer } from '@weir/protocol';
import { type RunningBroker, startBroker } from '@weir/test-broker';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { txnAbortCommand } from '../src/cli/txn-commands';
import { expectExitCode, weir } from './cli-runner';
import { temporaryDirectory } from './log-fixtures';

// Each run of the binary costs about a second of start-up.
vi.setConfig({ testTimeout: 30_000 });

/** `weir txn list|describe|abort` against a real broker's internal listener, through the real binary. */
describe('weir txn', () => {
  let broker: RunningBroker;
  let client: Client;
  let tokenDir: { path: string; cleanup: () => Promise<void> };
  /** Left open on purpose: the hanging transaction an operator inspects and aborts. */
  let hanging: TransactionalProducer;
  const cli = (...args: string[]) =>
    weir(['txn', ...args, '--internal', broker.internalBootstrap, '--token', broker.internalToken]);

  beforeAll(async () => {
    broker = await startBroker({
      topics: { autoCreateEnable: false },
      groups: { offsetsTopicPartitions: 2 },
      transactions: { stateTopicPartitions: 2 },
    });
    tokenDir = await temporaryDirectory('weir-cli-token-');
    await writeFile(join(tokenDir.path, 'internal-listener.token'), `${broker.internalToken}\n`);
    client = new Client({ bootstrapServers: [broker.bootstrap] });
    await new Admin(client).createTopics([{ name: 'payments', partitions: 2 }]);
    const done = new TransactionalProducer(client, { transactionalId: 'tx-done' });
    await done.initTransactions();
    done.beginTransaction();
    await done.send({ topic: 'payments', messages: [{ value: 'ok', partition: 0 }] });
    await done.commitTransaction();
    await done.close();
    hanging = new TransactionalProducer(client, {
      transactionalId: 'tx-hanging',
      transactionTimeoutMs: 600_000,
    });
    await hanging.initTransactions();
    hanging.beginTransaction();
    await hanging.send({
      topic: 'payments',
      messages: [
        { value: 'stuck', partition: 1 },
        { value: 'stuck', partition: 0 },
      ],
    });
  });
  afterAll(async () => {
    await hanging?.close();
    await client?.close();
    await broker?.dispose();
    await tokenDir?.cleanup();
  });

  it('lists transactional ids with producer id and state', async () => {
    const listed = expectExitCode(await cli('list'), 0);
    expect(listed.stdout).toMatch(/^TRANSACTIONAL-ID\s+PRODUCER-ID\s+STATE\n/);
    expect(listed.stdout).toMatch(/\ntx-done\s+\d+\s+CompleteCommit\n/);
    expect(listed.stdout).toMatch(/\ntx-hanging\s+\d+\s+Ongoing\n/);
  });

  it('describes a transaction: state, producer, timeout, start time and partitions', async () => {
    const described = expectExitCode(await cli('describe', 'tx-hanging'), 0);
    const lines = described.stdout.split('\n');
    expect(lines[0]).toMatch(
      /^Transactional id: tx-hanging {2}State: Ongoing {2}Producer id: \d+ {2}Epoch: 0$/,
    );
    expect(lines[1]).toMatch(/^Timeout: 600000 ms {2}Started: \d{4}-\d\d-\d\dT[\d:.]+Z {2}Partitions: 2$/);
    expect(lines.slice(2).join('\n')).toMatch(/^TOPIC\s+PARTITION\npayments\s+0\npayments\s+1\n$/);

    const unknown = expectExitCode(await cli('describe', 'tx-nobody'), 1);
    expect(unknown.stderr).toContain('TRANSACTIONAL_ID_NOT_FOUND');
  });

  it('reads the token from --token-file or the data directory, and says which file is missing', async () => {
    const tokenFile = join(tokenDir.path, 'internal-listener.token');
    const base = ['txn', 'list', '--internal', broker.internalBootstrap];
    expect(expectExitCode(await weir([...base, '--token-file', tokenFile]), 0).stdout).toContain(
      'tx-hanging',
    );
    expect(expectExitCode(await weir([...base, '--data-dir', tokenDir.path]), 0).stdout).toContain(
      'tx-hanging',
    );

    const missing = expectExitCode(await weir([...base, '--data-dir', join(tokenDir.path, 'nope')]), 2);
    expect(missing.stderr).toContain(`${join(tokenDir.path, 'nope', 'internal-listener.token')} (ENOENT)`);
    const wrong = expectExitCode(await weir([...base, '--token', 'not-the-token-at-all']), 1);
    expect(wrong.stderr).toContain('SASL_AUTHENTICATION_FAILED');
  });

  it('abort needs --reason, and --yes when nobody can confirm; then aborts and fences the producer', async () => {
    expectExitCode(await cli('abort', 'tx-hanging'), 2);
    const refused = expectExitCode(await cli('abort', 'tx-hanging', '--reason', 'hanging since Monday'), 2);
    expect(refused.stderr).toContain('refusing to abort transaction "tx-hanging" without --yes');
    expect(expectExitCode(await cli('describe', 'tx-hanging'), 0).stdout).toContain('State: Ongoing');

    const aborted = expectExitCode(
      await cli('abort', 'tx-hanging', '--reason', 'hanging since Monday', '--yes'),
      0,
    );
    expect(aborted.stdout).toBe('Aborted transaction "tx-hanging".\n');
    const after = expectExitCode(await cli('describe', 'tx-hanging'), 0).stdout;
    expect(after).toMatch(/State: CompleteAbort {2}Producer id: \d+ {2}Epoch: 1\n/);
    await expect(hanging.commitTransaction()).rejects.toMatchObject({
      code: ErrorCode.INVALID_PRODUCER_EPOCH,
    });

    // Nothing open any more: the broker refuses, and the CLI says why.
    const again = expectExitCode(await cli('abort', 'tx-hanging', '--reason', 'twice', '--yes'), 1);
    expect(again.stderr).toContain('INVALID_TXN_STATE');
  });
});

describe('weir txn abort confirmation', () => {
  function capture() {
    let text = '';
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        text += chunk.toString();
        done();
      },
    });
    return { stream, text: () => text };
  }

  /** A session whose abort is only recorded: the confirmation is what is under test. */
  function fakeSession() {
    const aborted: [string, string][] = [];
    const session = {
      admin: {
        describeTransactions: async (ids: string[]) =>
          ids.map((transactionalId) => ({
            transactionalId,
            state: 'Ongoing',
            producerId: 7n,
            producerEpoch: 0,
            timeoutMs: 60_000,
            startTimeMs: 0n,
            partitions: [{ topic: 'payments', partition: 1 }],
          })),
      } as unknown as Admin,
      internal: {
        abortTransaction: async (id: string, reason: string) => {
          aborted.push([id, reason]);
        },
      } as unknown as InternalAdmin,
    };
    return { session, aborted };
  }

  function terminalInput(typed: string) {
    const input = Object.assign(new PassThrough(), { isTTY: true });
    input.end(typed);
    return input;
  }

  it('aborts once the id is typed on a terminal, and not otherwise', async () => {
    for (const [typed, expected] of [
      ['tx-1\n', [['tx-1', 'stuck']]],
      ['tx-2\n', []],
      ['', []],
    ] as const) {
      const { session, aborted } = fakeSession();
      const stderr = capture();
      const stdout = capture();
      const code = await txnAbortCommand(
        session,
        { transactionalId: 'tx-1', reason: 'stuck', yes: false },
        { stdin: terminalInput(typed), stdout: stdout.stream, stderr: stderr.stream },
      );
      expect(aborted).toEqual(expected);
      expect(stderr.text()).toContain('payments-1');
      expect(stderr.text()).toContain('Type the transactional id to confirm');
      if (expected.length === 0) {
        expect(code).toBe(1);
        expect(stderr.text()).toContain('Transaction "tx-1" was not aborted.');
      } else {
        expect(code).toBeUndefined();
        expect(stdout.text()).toBe('Aborted transaction "tx-1".\n');
      }
    }
  });
});
