import { describe, expect, it } from 'vitest';
import { TransactionVerifications } from './transaction-verification';

const PRODUCER = 11;
const ADMISSION = { producerEpoch: 3, leaderEpoch: 5 };

describe('TransactionVerifications', () => {
  it('hands out one guard per producer until a marker drops it', () => {
    const verifications = new TransactionVerifications();
    const guard = verifications.begin(PRODUCER);
    expect(verifications.begin(PRODUCER)).toBe(guard);
    expect(verifications.holds(PRODUCER, guard)).toBe(true);
    verifications.end(PRODUCER);
    expect(verifications.holds(PRODUCER, guard)).toBe(false);
    expect(verifications.begin(PRODUCER)).not.toBe(guard);
  });

  it('reuses an admission only for the same producer epoch and leader epoch, until a marker', () => {
    const verifications = new TransactionVerifications();
    const guard = verifications.begin(PRODUCER);
    expect(verifications.admittedGuard(PRODUCER, ADMISSION)).toBeUndefined();
    verifications.admitted(PRODUCER, guard, ADMISSION);
    expect(verifications.admittedGuard(PRODUCER, ADMISSION)).toBe(guard);
    expect(verifications.admittedGuard(PRODUCER, { ...ADMISSION, producerEpoch: 4 })).toBeUndefined();
    expect(verifications.admittedGuard(PRODUCER, { ...ADMISSION, leaderEpoch: 6 })).toBeUndefined();
    expect(verifications.admittedGuard(PRODUCER + 1, ADMISSION)).toBeUndefined();
    verifications.end(PRODUCER);
    expect(verifications.admittedGuard(PRODUCER, ADMISSION)).toBeUndefined();
  });

  it('ignores an admission under a guard a marker dropped while the coordinator was asked', () => {
    const verifications = new TransactionVerifications();
    const stale = verifications.begin(PRODUCER);
    verifications.end(PRODUCER);
    const current = verifications.begin(PRODUCER);
    verifications.admitted(PRODUCER, stale, ADMISSION);
    expect(verifications.admittedGuard(PRODUCER, ADMISSION)).toBeUndefined();
    expect(verifications.holds(PRODUCER, current)).toBe(true);
  });
});
