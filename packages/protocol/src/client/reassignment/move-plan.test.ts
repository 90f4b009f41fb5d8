import { describe, expect, it } from 'vitest';
import { moveProgress, parseReassignmentJson, planMoves, reassignmentJson } from './move-plan';

const current = [
  { topic: 't', partition: 0, replicas: [1, 2, 3], leader: 1 },
  { topic: 't', partition: 1, replicas: [2, 3, 4], leader: -1 },
];
const sizes: Record<string, number> = { 't-0-1': 1000, 't-0-2': 990 };
const sizeOf = (topic: string, partition: number, brokerId: number) =>
  sizes[`${topic}-${partition}-${brokerId}`];

describe('planMoves', () => {
  it('names what each move adds and removes, the bytes it copies and whether leadership moves', () => {
    expect(
      planMoves(current, [{ topic: 't', partition: 0, replicas: [2, 3, 4] }], [1, 2, 3, 4], sizeOf),
    ).toEqual([
      {
        topic: 't',
        partition: 0,
        currentReplicas: [1, 2, 3],
        replicas: [2, 3, 4],
        addingReplicas: [4],
        removingReplicas: [1],
        bytesToCopy: 1000,
        leaderMoves: true,
      },
    ]);
    const [leaderless] = planMoves(
      current,
      [{ topic: 't', partition: 1, replicas: [2, 3, 4, 1] }],
      [1, 2, 3, 4],
      sizeOf,
    );
    expect(leaderless).toMatchObject({ addingReplicas: [1], bytesToCopy: null, leaderMoves: false });
  });

  it('refuses unknown partitions and brokers, empty and repeated lists, and a partition named twice', () => {
    const problems = planMoves(
      current,
      [
        { topic: 't', partition: 9, replicas: [1] },
        { topic: 't', partition: 0, replicas: [1, 7] },
        { topic: 't', partition: 1, replicas: [] },
        { topic: 'u', partition: 0, replicas: [1] },
      ],
      [1, 2, 3, 4],
      sizeOf,
    ).map((row) => ('problem' in row ? row.problem : 'planned'));
    expect(problems).toEqual([
      't-9 does not exist',
      'broker 7 is not in the cluster',
      'the target replica list is empty',
      'u-0 does not exist',
    ]);
    const twice = planMoves(
      current,
      [
        { topic: 't', partition: 0, replicas: [1, 1] },
        { topic: 't', partition: 1, replicas: [2, 3] },
        { topic: 't', partition: 1, replicas: [3, 4] },
      ],
      [1, 2, 3, 4],
      sizeOf,
    ).map((row) => ('problem' in row ? row.problem : 'planned'));
    expect(twice).toEqual([
      'broker 1 is named twice',
      't-1 is named more than once',
      't-1 is named more than once',
    ]);
  });
});

describe('moveProgress', () => {
  it('compares each adding replica’s log size with the leader’s; one in the ISR is done', () => {
    const move = {
      topic: 't',
      partition: 0,
      replicas: [2, 3, 4, 1],
      addingReplicas: [4, 2],
      removingReplicas: [1],
    };
    const sizesByBroker: Record<number, number> = { 1: 1000, 4: 250 };
    expect(moveProgress(move, 1, [1, 2, 3], (id) => sizesByBroker[id])).toEqual([
      { brokerId: 4, copiedBytes: 250, fraction: 0.25, inSync: false },
      { brokerId: 2, copiedBytes: null, fraction: 1, inSync: true },
    ]);
    expect(moveProgress(move, -1, [], () => undefined)[0]!.fraction).toBeNull();
  });
});

describe('Kafka reassignment JSON', () => {
  it('round-trips a plan', () => {
    const moves = [{ topic: 't', partition: 0, replicas: [2, 3, 4] }];
    expect(parseReassignmentJson(reassignmentJson(moves))).toEqual(moves);
  });

  it('names the wrong field', () => {
    expect(() => parseReassignmentJson('{')).toThrow(/not JSON/);
    expect(() => parseReassignmentJson('{"version":1}')).toThrow('"partitions" array');
    expect(() =>
      parseReassignmentJson('{"partitions":[{"topic":"t","partition":-1,"replicas":[1]}]}'),
    ).toThrow('partitions[0].partition');
    expect(() =>
      parseReassignmentJson('{"partitions":[{"topic":"t","partition":0,"replicas":["a"]}]}'),
    ).toThrow('partitions[0].replicas');
    expect(() => parseReassignmentJson('{"partitions":[{"partition":0,"replicas":[1]}]}')).toThrow(
      'partitions[0].topic',
    );
  });
});
