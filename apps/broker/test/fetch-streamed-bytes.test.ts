import { CreateTopics, Fetch, Produce, type RequestOf } from '@weir/protocol';
import { type RunningBroker, startBroker } from '@weir/test-broker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchOf, produceBody, RawConnection, valuesOf } from './raw-socket';

const TOPIC = 'streamed';
/** Partitions 0–2 hold records; partition 3 stays empty, so its empty record set sits between regions. */
const PARTITIONS = [0, 1, 2, 3];
const FILLED_PARTITIONS = [0, 1, 2];
const BATCHES_PER_PARTITION = 8;
/** One record per batch: eight of them make a partition's records span several read chunks. */
const VALUE_BYTES = 300 * 1024;

function storedValue(partition: number, batch: number): string {
  return `${partition}-${batch}-`.padEnd(VALUE_BYTES, String.fromCharCode(97 + ((partition + batch) % 26)));
}

/**
 * A Fetch answer whose records stay on disk until written (segment regions, read piece by piece
 * as the client's socket drains, with the encoded fields between them written as they come) must
 * be byte for byte the answer read into memory and encoded whole. Two brokers hold the same
 * batches, one reading every answer into memory and one none; both answer the same Fetch requests,
 * over several partitions (an empty one among them), each with records of several 256 KiB read
 * chunks, the partitions read at once and one after the other.
 */
describe('Fetch answers streamed from disk', () => {
  const brokers: RunningBroker[] = [];
  const connections: RawConnection[] = [];

  beforeAll(async () => {
    for (const fetchInMemoryBytes of [64 * 1024 * 1024, 0]) {
      const broker = await startBroker({
        topics: { autoCreateEnable: false },
        limits: { fetchInMemoryBytes },
      });
      brokers.push(broker);
      const connection = await RawConnection.open(broker.port);
      connections.push(connection);
      const created = await connection.request(CreateTopics, 4, {
        topics: [
          {
            name: TOPIC,
            numPartitions: PARTITIONS.length,
            replicationFactor: 1,
            assignments: [],
            configs: [],
          },
        ],
        timeoutMs: 10_000,
        validateOnly: false,
      });
      expect(created.topics[0]!.errorCode).toBe(0);
      for (let batch = 0; batch < BATCHES_PER_PARTITION; batch++) {
        const produced = await connection.request(
          Produce,
          7,
          produceBody(1, [
            {
              topic: TOPIC,
              partitions: FILLED_PARTITIONS.map((partition) => ({
                partition,
                records: batchOf([storedValue(partition, batch)]),
              })),
            },
          ]),
        );
        for (const answer of produced.responses[0]!.partitionResponses) expect(answer.errorCode).toBe(0);
      }
    }
  });
  afterAll(async () => {
    for (const connection of connections) await connection.destroy();
    for (const broker of brokers) await broker.dispose();
  });

  function fetchRequest(maxBytes: number): RequestOf<typeof Fetch> {
    return {
      replicaId: -1,
      maxWaitMs: 0,
      minBytes: 0,
      maxBytes,
      isolationLevel: 0,
      sessionId: 0,
      sessionEpoch: -1,
      topics: [
        {
          topic: TOPIC,
          partitions: PARTITIONS.map((partition) => ({
            partition,
            currentLeaderEpoch: -1,
            fetchOffset: 0n,
            logStartOffset: -1n,
            partitionMaxBytes: 8 * 1024 * 1024,
          })),
        },
      ],
      forgottenTopicsData: [],
      rackId: '',
    };
  }

  /** The raw answer frame of each broker to the same Fetch. */
  async function answers(version: number, body: RequestOf<typeof Fetch>): Promise<Buffer[]> {
    return Promise.all(
      connections.map(async (connection) => {
        await connection.send(Fetch, version, body);
        return connection.nextFrame(10_000);
      }),
    );
  }

  it.each([4, 11])(
    'answers v%i byte for byte as the in-memory read, partitions read at once',
    async (version) => {
      const [inMemory, streamed] = await answers(version, fetchRequest(64 * 1024 * 1024));
      // Several chunks' worth of records, so the streamed answer took several reads and writes.
      expect(streamed!.length).toBeGreaterThan(3 * BATCHES_PER_PARTITION * VALUE_BYTES);
      expect(streamed!.equals(inMemory!)).toBe(true);
    },
  );

  it('answers byte for byte as the in-memory read, partitions read one after the other', async () => {
    // Below the partitions' own limits together, so the broker reads them in order, sharing it.
    const maxBytes = Math.floor(1.5 * BATCHES_PER_PARTITION * VALUE_BYTES);
    const [inMemory, streamed] = await answers(11, fetchRequest(maxBytes));
    expect(streamed!.equals(inMemory!)).toBe(true);
  });

  it('carries every record of every partition, in order', async () => {
    const connection = connections[1]!;
    const response = await connection.request(Fetch, 11, fetchRequest(64 * 1024 * 1024), 10_000);
    const partitions = response.responses[0]!.partitions;
    expect(partitions.map((partition) => partition.partitionIndex)).toEqual(PARTITIONS);
    for (const partition of partitions) {
      expect(partition.errorCode).toBe(0);
      const expected = FILLED_PARTITIONS.includes(partition.partitionIndex)
        ? Array.from({ length: BATCHES_PER_PARTITION }, (_, batch) =>
            storedValue(partition.partitionIndex, batch),
          )
        : [];
      expect(valuesOf(partition.records)).toEqual(expected);
    }
  });
});
