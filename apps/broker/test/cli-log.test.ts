import { readdir, readFile, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { CreateTopics, ErrorCode, Produce } from '@weir/protocol';
import { type RunningBroker, startBroker } from '@weir/test-broker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectExitCode, weir } from './cli-runner';
import { temporaryDirectory } from './log-fixtures';
import { batchOf, fetchValues, produceBody, RawConnection } from './raw-socket';

const TOPIC = 'orders';
const BATCHES = 40;
const RECORDS_PER_BATCH = 5;

/**
 * A partition whose acknowledged data was damaged on disk, from a real broker's data directory:
 * the broker takes it offline at start (KAFKA_STORAGE_ERROR, the other partition serving) and cuts
 * nothing; `weir log check` shows the damage and what a repair would cut; `weir log repair` cuts
 * it; the next start serves the partition again from what survived.
 */
describe('weir log check and repair', () => {
  let directory: { path: string; cleanup: () => Promise<void> };
  let broker: RunningBroker | undefined;
  let connection: RawConnection | undefined;
  const brokerConfig = { topics: { autoCreateEnable: false }, log: { segmentBytes: 2048 } };
  const partitionDirectory = () => join(directory.path, 'logs', `${TOPIC}-0`);
  const cli = (...args: string[]) => weir(['log', ...args, '--data-dir', directory.path]);

  async function start(): Promise<RawConnection> {
    broker = await startBroker(brokerConfig, directory.path);
    connection = await RawConnection.open(broker.port);
    return connection;
  }
  async function stop(): Promise<void> {
    await connection?.destroy();
    connection = undefined;
    await broker?.stop();
    broker = undefined;
  }
  async function produce(partition: number, values: string[]) {
    const response = await connection!.request(
      Produce,
      7,
      produceBody(-1, [{ topic: TOPIC, partitions: [{ partition, records: batchOf(values) }] }]),
    );
    return response.responses[0]!.partitionResponses[0]!;
  }
  async function fileSizes(): Promise<Record<string, number>> {
    const sizes: Record<string, number> = {};
    for (const name of (await readdir(partitionDirectory())).sort()) {
      sizes[name] = (await stat(join(partitionDirectory(), name))).size;
    }
    return sizes;
  }

  beforeAll(async () => {
    directory = await temporaryDirectory('weir-log-cli-');
  });
  afterAll(async () => {
    await stop();
    await directory?.cleanup();
  });

  it('takes the damaged partition offline, shows the damage, repairs it, and serves it again', async () => {
    const raw = await start();
    const created = await raw.request(CreateTopics, 4, {
      topics: [{ name: TOPIC, numPartitions: 2, replicationFactor: 1, assignments: [], configs: [] }],
      timeoutMs: 10_000,
      validateOnly: false,
    });
    expect(created.topics[0]!.errorCode).toBe(0);
    for (let batch = 0; batch < BATCHES; batch++) {
      const values = Array.from({ length: RECORDS_PER_BATCH }, (_, index) =>
        `r-${batch}-${index}`.padEnd(60, '.'),
      );
      expect((await produce(0, values)).errorCode).toBe(0);
    }
    expect((await produce(1, ['a', 'b', 'c'])).errorCode).toBe(0);
    await stop();

    // As after a crash soon after the acknowledgements, before the recovery-point checkpoint caught
    // up: the start rescans the log, and only the flushed-point file knows what was acknowledged.
    await unlink(join(directory.path, 'logs', '.weir-clean-shutdown'));
    await unlink(join(directory.path, 'logs', 'recovery-point-offset-checkpoint'));
    const logs = (await readdir(partitionDirectory())).filter((name) => name.endsWith('.log')).sort();
    expect(logs.length).toBeGreaterThan(2);
    const damagedFile = join(partitionDirectory(), logs[1]!);
    const damagedOffset = Number(logs[1]!.slice(0, 20));
    const bytes = await readFile(damagedFile);
    // A record byte of the segment's first batch: its CRC-32C no longer matches.
    bytes[70] = bytes[70]! ^ 0xff;
    await writeFile(damagedFile, bytes);
    const damagedSizes = await fileSizes();

    // The broker serves the other partition and refuses this one, and cuts nothing.
    const restarted = await start();
    expect((await produce(0, ['refused'])).errorCode).toBe(ErrorCode.KAFKA_STORAGE_ERROR);
    expect((await fetchValues(restarted, TOPIC, 0)).errorCode).toBe(ErrorCode.KAFKA_STORAGE_ERROR);
    expect((await fetchValues(restarted, TOPIC, 1)).values).toEqual(['a', 'b', 'c']);
    expect((await produce(1, ['d'])).errorCode).toBe(0);
    await stop();
    expect(await fileSizes()).toEqual(damagedSizes);

    const lastOffset = BATCHES * RECORDS_PER_BATCH - 1;
    const checked = expectExitCode(await cli('check', TOPIC, '0'), 1);
    expect(checked.stdout).toContain('SEGMENT               BYTES  BATCHES  RECORDS  OFFSETS');
    expect(checked.stdout).toContain(
      `First damage: corrupt batch at byte 0 of ${damagedFile} (offset ${damagedOffset}): `,
    );
    expect(checked.stdout).toMatch(/CRC/);
    const cutRecords = BATCHES * RECORDS_PER_BATCH - damagedOffset;
    expect(checked.stdout).toContain(
      `A repair would cut offsets ${damagedOffset}..${lastOffset} (${cutRecords / RECORDS_PER_BATCH} batches, ${cutRecords} records whose headers still parse)`,
    );
    expect(checked.stdout).toContain(
      `Offsets ${damagedOffset}..${lastOffset} were acknowledged as durable: a repair loses them.`,
    );
    expect(checked.stdout).toContain(`weir log repair ${TOPIC} 0 --data-dir ${directory.path}`);

    const all = expectExitCode(await cli('check', '--all'), 1);
    expect(all.stdout).toMatch(
      new RegExp(
        `^${TOPIC}-0 +\\d+ +0\\.\\.${damagedOffset - 1} +${lastOffset + 1} +damaged at offset ${damagedOffset}$`,
        'm',
      ),
    );
    expect(all.stdout).toMatch(new RegExp(`^${TOPIC}-1 +1 +0\\.\\.3 +4 +ok$`, 'm'));

    const unconfirmed = expectExitCode(await cli('repair', TOPIC, '0'), 2);
    expect(unconfirmed.stderr).toContain(`refusing to repair ${TOPIC}-0 without --yes`);
    expect(await fileSizes()).toEqual(damagedSizes);

    const repaired = expectExitCode(await cli('repair', TOPIC, '0', '--yes'), 0);
    expect(repaired.stdout).toContain(`Repaired ${TOPIC}-0`);
    expect(repaired.stdout).toContain(`the log ends at offset ${damagedOffset}`);
    const clean = expectExitCode(await cli('check', TOPIC, '0'), 0);
    expect(clean.stdout).toContain(`OK: every batch is whole and valid up to offset ${damagedOffset}.`);

    // The next start accepts the repaired partition: what survived is served, and appends go on.
    const served = await start();
    const survived = await fetchValues(served, TOPIC, 0);
    expect(survived.errorCode).toBe(0);
    expect(survived.highWatermark).toBe(BigInt(damagedOffset));
    expect(survived.values[damagedOffset - 1]).toBe(
      `r-${damagedOffset / RECORDS_PER_BATCH - 1}-${RECORDS_PER_BATCH - 1}`.padEnd(60, '.'),
    );
    const appended = await produce(0, ['after-repair']);
    expect(appended.errorCode).toBe(0);
    expect(appended.baseOffset).toBe(BigInt(damagedOffset));
    await stop();
  }, 120_000);

  it('refuses a partition that has no log, naming it', async () => {
    const missing = expectExitCode(await cli('check', 'nope', '3'), 2);
    expect(missing.stderr).toContain('nope-3 has no log in');
  });
});
