import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import {
  BATCH_LOG_OVERHEAD_BYTES,
  Client,
  decodeRecordBatch,
  ErrorCode,
  encodeRecordBatch,
  Fetch,
  InitProducerId,
  Produce,
} from '@weir/protocol';
import { type RunningBroker, startBroker, temporaryDirectory } from '@weir/test-broker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partitionDirectoryName } from '../src/log/log-files';
import { createCompactedTopic } from './compaction-fixtures';
import { pollUntil } from './group-fixtures';
import { kcat, kcatEndOffset, kcatRecords } from './kcat-clients';
import { fetchBody } from './raw-socket';

/**
 * An idempotent producer on a compacted topic keeps deduplicating across a clean (issue #19). Its
 * batches are sent by hand through the SDK client (InitProducerId without a transactional id,
 * then Produce with the producer id, epoch and sequences), so a retry can be sent byte for byte.
 * Later plain records supersede every key it wrote, and the cleaner removes its records; the last
 * batch stays as a header without records (record-retention.ts: a live producer's sequence
 * anchor, as Kafka's cleaner keeps it). A retry of a recent batch is then still answered with its
 * first offset and stored nowhere, the next sequence is taken and a gap is refused, and a broker
 * that lost its producer snapshots rebuilds the producer from the log's headers alone and still
 * recognises the retry.
 */

const TOPIC = 'sequences';
const KEYS = 4;
const BATCHES = 10;
const OVERRIDES = { log: { cleaner: { backoffMs: 100 } } } as const;

interface Producer {
  producerId: bigint;
  producerEpoch: number;
}

/** One batch of the producer: every key once, its first sequence `batch * KEYS`. */
function producerBatch(producer: Producer, batch: number): Buffer {
  return encodeRecordBatch({
    records: Array.from({ length: KEYS }, (_, key) => ({
      key: Buffer.from(`key-${key}`),
      value: Buffer.from(`idempotent-${batch}-${key}`),
      timestampMs: Date.now(),
    })),
    producerId: producer.producerId,
    producerEpoch: producer.producerEpoch,
    baseSequence: batch * KEYS,
  });
}

/** Produces one batch with acks=-1; the partition's error code and base offset. */
async function produce(client: Client, records: Buffer): Promise<{ errorCode: number; baseOffset: number }> {
  const answer = await client.send('any', Produce, {
    transactionalId: null,
    acks: -1,
    timeoutMs: 10_000,
    topicData: [{ name: TOPIC, partitionData: [{ index: 0, records }] }],
  });
  const partition = answer.responses[0]!.partitionResponses[0]!;
  return { errorCode: partition.errorCode, baseOffset: Number(partition.baseOffset) };
}

/** The headers of the batches a Fetch from `offset` returns: where they are and what they hold. */
async function fetchedBatches(client: Client, offset: number) {
  const answer = await client.send('any', Fetch, fetchBody(TOPIC, 0, BigInt(offset)));
  const bytes = answer.responses[0]!.partitions[0]!.records!;
  const batches = [];
  for (let position = 0; position < bytes.length; ) {
    const size = BATCH_LOG_OVERHEAD_BYTES + bytes.readInt32BE(position + 8);
    const decoded = decodeRecordBatch(bytes.subarray(position, position + size));
    if (!decoded.ok) throw decoded.error;
    const batch = decoded.value;
    batches.push({
      baseOffset: Number(batch.baseOffset),
      lastOffsetDelta: batch.lastOffsetDelta,
      producerId: batch.producerId,
      producerEpoch: batch.producerEpoch,
      baseSequence: batch.baseSequence,
      records: batch.records.length,
    });
    position += size;
  }
  return batches;
}

describe('an idempotent producer across a clean of its compacted partition', () => {
  let dataDir: { path: string; cleanup: () => Promise<void> };
  let broker: RunningBroker;
  let client: Client;
  let producer: Producer;
  /** The base offset each of the producer's batches got. */
  const baseOffsets: number[] = [];

  beforeAll(async () => {
    dataDir = await temporaryDirectory('weir-idempotent-compaction-');
    broker = await startBroker(OVERRIDES, dataDir.path);
    client = new Client({ bootstrapServers: [broker.bootstrap] });
    await createCompactedTopic(client, TOPIC);
    const init = await client.send('any', InitProducerId, {
      transactionalId: null,
      transactionTimeoutMs: 60_000,
    });
    expect(init.errorCode).toBe(ErrorCode.NONE);
    producer = { producerId: init.producerId, producerEpoch: init.producerEpoch };
    for (let batch = 0; batch < BATCHES; batch++) {
      const written = await produce(client, producerBatch(producer, batch));
      expect(written.errorCode).toBe(ErrorCode.NONE);
      baseOffsets.push(written.baseOffset);
    }
    // Plain records supersede every key the producer wrote, and fillers close their segment.
    const lines = [
      ...Array.from({ length: KEYS }, (_, key) => `key-${key}:plain-${key}`),
      ...Array.from({ length: 30 }, (_, index) => `filler-${index}:${'f'.repeat(50)}`),
    ];
    await kcat(
      broker,
      ['-P', '-t', TOPIC, '-p', '0', '-K', ':', '-X', 'batch.num.messages=5'],
      `${lines.join('\n')}\n`,
    );
  });
  afterAll(async () => {
    await client?.close();
    await broker?.stop();
    await dataDir?.cleanup();
  });

  it('the clean removes the producer’s records and keeps its last batch as a header', async () => {
    const records = await pollUntil(async () => {
      const seen = await kcatRecords(broker, TOPIC, 0);
      return seen.some((record) => record.value!.startsWith('idempotent-')) ? undefined : seen;
    }, 'the cleaner to remove the idempotent producer’s records');
    // kcat reads across the header: the keys' plain values follow the producer's last offset.
    const last = baseOffsets.at(-1)!;
    expect(records.filter((record) => record.key.startsWith('key-'))).toEqual(
      Array.from({ length: KEYS }, (_, key) => ({
        offset: last + KEYS + key,
        key: `key-${key}`,
        value: `plain-${key}`,
      })),
    );
    // A fetch from the start of the producer's last batch finds its header, sequences and all.
    const [header] = await fetchedBatches(client, last);
    expect(header).toEqual({
      baseOffset: last,
      lastOffsetDelta: KEYS - 1,
      producerId: producer.producerId,
      producerEpoch: producer.producerEpoch,
      baseSequence: (BATCHES - 1) * KEYS,
      records: 0,
    });
    // Its earlier batches are gone whole: a fetch from the first one starts at a later batch.
    const [first] = await fetchedBatches(client, baseOffsets[0]!);
    expect(first!.baseOffset).toBeGreaterThan(baseOffsets[0]!);
  });

  it('answers a retry with its first offset, stores it nowhere, takes the next sequence, refuses a gap', async () => {
    const endBefore = await kcatEndOffset(broker, TOPIC, 0);
    for (const batch of [BATCHES - 1, BATCHES - 3]) {
      expect(await produce(client, producerBatch(producer, batch))).toEqual({
        errorCode: ErrorCode.NONE,
        baseOffset: baseOffsets[batch],
      });
    }
    expect(await kcatEndOffset(broker, TOPIC, 0)).toBe(endBefore);
    expect(
      (await kcatRecords(broker, TOPIC, 0)).filter((record) => record.value!.startsWith('idempotent-')),
    ).toEqual([]);

    expect(await produce(client, producerBatch(producer, BATCHES))).toEqual({
      errorCode: ErrorCode.NONE,
      baseOffset: endBefore,
    });
    baseOffsets.push(endBefore);
    expect(await produce(client, producerBatch(producer, BATCHES + 2))).toMatchObject({
      errorCode: ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER,
    });
    const records = await kcatRecords(broker, TOPIC, 0);
    expect(records.filter((record) => record.value!.startsWith('idempotent-'))).toEqual(
      Array.from({ length: KEYS }, (_, key) => ({
        offset: endBefore + key,
        key: `key-${key}`,
        value: `idempotent-${BATCHES}-${key}`,
      })),
    );
    expect(await kcatEndOffset(broker, TOPIC, 0)).toBe(endBefore + KEYS);
  });

  it('rebuilt from the cleaned log alone, the producer state still recognises a retry', async () => {
    // Plain records supersede the producer's newest batch too, and close its segment.
    const lines = [
      ...Array.from({ length: KEYS }, (_, key) => `key-${key}:plain-again-${key}`),
      ...Array.from({ length: 30 }, (_, index) => `filler-again-${index}:${'f'.repeat(50)}`),
    ];
    await kcat(
      broker,
      ['-P', '-t', TOPIC, '-p', '0', '-K', ':', '-X', 'batch.num.messages=5'],
      `${lines.join('\n')}\n`,
    );
    await pollUntil(async () => {
      const seen = await kcatRecords(broker, TOPIC, 0);
      return !seen.some((record) => record.value!.startsWith('idempotent-'));
    }, 'the cleaner to remove the producer’s newest records');
    const endBefore = await kcatEndOffset(broker, TOPIC, 0);
    await client.close();
    await broker.stop();
    // Without snapshots the restarted broker replays every batch header from the log start
    // (producer-state-rebuild.ts): only the header the clean kept tells it the producer's last sequence.
    const partitionDirectory = join(dataDir.path, 'logs', partitionDirectoryName(TOPIC, 0));
    const snapshots = (await readdir(partitionDirectory)).filter((name) => name.endsWith('.snapshot'));
    expect(snapshots.length).toBeGreaterThan(0);
    for (const name of snapshots) await rm(join(partitionDirectory, name));

    broker = await startBroker(OVERRIDES, dataDir.path);
    client = new Client({ bootstrapServers: [broker.bootstrap] });
    expect(await produce(client, producerBatch(producer, BATCHES))).toEqual({
      errorCode: ErrorCode.NONE,
      baseOffset: baseOffsets.at(-1),
    });
    expect(await kcatEndOffset(broker, TOPIC, 0)).toBe(endBefore);
    expect(await produce(client, producerBatch(producer, BATCHES + 1))).toEqual({
      errorCode: ErrorCode.NONE,
      baseOffset: endBefore,
    });
  });
});
