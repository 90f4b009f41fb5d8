import { ErrorCode, type RequestOf, WriteTxnMarkers } from '@weir/protocol';
import { describe, expect, it } from 'vitest';
import { internalSession } from './internal-fixtures';
import { RawClient } from './raw-client';
import { txnBrokerPerSuite } from './txn-fixtures';

type Marker = RequestOf<typeof WriteTxnMarkers>['markers'][number];

function marker(fields: Partial<Marker> & Pick<Marker, 'producerId' | 'topics'>): Marker {
  return { producerEpoch: 0, transactionResult: true, coordinatorEpoch: 0, ...fields };
}

/** Every partition's code of a WriteTxnMarkers answer, as `topic-partition: code`, in answer order. */
function codesOf(answer: {
  markers: { topics: { name: string; partitions: { partitionIndex: number; errorCode: number }[] }[] }[];
}) {
  return answer.markers.flatMap((row) =>
    row.topics.flatMap((topic) =>
      topic.partitions.map(
        (partition) => `${topic.name}-${partition.partitionIndex}: ${partition.errorCode}`,
      ),
    ),
  );
}

/**
 * WriteTxnMarkers v0 by raw request on the internal listener, as another broker's transaction
 * coordinator sends it: the leader appends the markers and answers per partition.
 */
describe('WriteTxnMarkers on the internal listener', () => {
  const suite = txnBrokerPerSuite(
    { transactions: { stateTopicPartitions: 1 } },
    { name: 'wtm', partitionCount: 3 },
  );

  it('commits an open transaction: the last stable offset moves past its records', async () => {
    const { wire, running } = suite;
    const claim = await wire.claim('wtm-tx');
    expect(await wire.addPartitions(claim, 'wtm', [0])).toEqual([ErrorCode.NONE]);
    expect(await wire.produce(claim, 'wtm', 0, ['a', 'b'], 0)).toBe(ErrorCode.NONE);
    expect(await wire.latest('wtm', 0, false)).toBe(2);
    expect(await wire.latest('wtm', 0, true)).toBe(0);
    const session = internalSession(running);
    try {
      const answer = await session.client.send('any', WriteTxnMarkers, {
        markers: [
          marker({
            producerId: claim.producerId,
            producerEpoch: claim.producerEpoch,
            topics: [{ name: 'wtm', partitionIndexes: [0] }],
          }),
        ],
      });
      expect(codesOf(answer)).toEqual(['wtm-0: 0']);
    } finally {
      await session.close();
    }
    // The two records and the COMMIT marker; nothing is open any more.
    expect(await wire.latest('wtm', 0, false)).toBe(3);
    expect(await wire.latest('wtm', 0, true)).toBe(3);
  });

  it('answers each partition on its own: unknown ones, a bad producer id, a fenced coordinator epoch', async () => {
    const { wire, running } = suite;
    const session = internalSession(running);
    try {
      const newer = await session.client.send('any', WriteTxnMarkers, {
        markers: [
          marker({
            producerId: 5001n,
            coordinatorEpoch: 9,
            transactionResult: false,
            topics: [{ name: 'wtm', partitionIndexes: [1] }],
          }),
        ],
      });
      expect(codesOf(newer)).toEqual(['wtm-1: 0']);
      const mixed = await session.client.send('any', WriteTxnMarkers, {
        markers: [
          // Older than the coordinator epoch the partition last saw for this producer.
          marker({
            producerId: 5001n,
            coordinatorEpoch: 3,
            topics: [
              { name: 'wtm', partitionIndexes: [1, 2, 7] },
              { name: 'no-such-topic', partitionIndexes: [0] },
            ],
          }),
          marker({ producerId: -1n, topics: [{ name: 'wtm', partitionIndexes: [2] }] }),
          // Listed twice: written once, answered twice.
          marker({ producerId: 5002n, topics: [{ name: 'wtm', partitionIndexes: [2, 2] }] }),
        ],
      });
      expect(codesOf(mixed)).toEqual([
        `wtm-1: ${ErrorCode.TRANSACTION_COORDINATOR_FENCED}`,
        'wtm-2: 0',
        `wtm-7: ${ErrorCode.UNKNOWN_TOPIC_OR_PARTITION}`,
        `no-such-topic-0: ${ErrorCode.UNKNOWN_TOPIC_OR_PARTITION}`,
        `wtm-2: ${ErrorCode.INVALID_REQUEST}`,
        'wtm-2: 0',
        'wtm-2: 0',
      ]);
    } finally {
      await session.close();
    }
    // Partition 1 holds the first ABORT marker only; partition 2 one marker from each of the two
    // writes that were allowed.
    expect(await wire.latest('wtm', 1, false)).toBe(1);
    expect(await wire.latest('wtm', 2, false)).toBe(2);
  });

  it('is not served on the client listener, which keeps serving', async () => {
    const { running, wire } = suite;
    const client = await RawClient.connect(running.bootstrap);
    try {
      const refused = await client
        .request(WriteTxnMarkers, 0, {
          markers: [marker({ producerId: 5003n, topics: [{ name: 'wtm', partitionIndexes: [0] }] })],
        })
        .then(
          () => 'answered',
          () => 'refused',
        );
      expect(refused).toBe('refused');
    } finally {
      await client.close();
    }
    expect(await wire.latest('wtm', 0, false)).toBe(3);
  });
});
