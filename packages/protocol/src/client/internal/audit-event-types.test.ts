import { describe, expect, it } from 'vitest';
import { type AuditEventRow, mergeAuditPages } from './audit-event-types';

function row(atMs: number, brokerId: number, sequence: number): AuditEventRow {
  return {
    id: `${String(atMs).padStart(15, '0')}-${String(brokerId).padStart(10, '0')}-${String(sequence).padStart(12, '0')}`,
    atMs,
    brokerId,
    principal: 'User:alice',
    clientId: 'unit',
    clientHost: '127.0.0.1',
    listener: 'internal',
    action: 'create-topic',
    resourceType: 'topic',
    resourceName: `t-${brokerId}-${sequence}`,
    input: {},
    outcomeCode: 0,
    outcomeName: 'NONE',
  };
}

describe('merging the brokers’ audit pages', () => {
  it('keeps the newest events over all brokers and continues after the last one kept', () => {
    const one = { events: [row(50, 1, 9), row(30, 1, 8), row(10, 1, 7)] };
    const two = { events: [row(40, 2, 3), row(20, 2, 2)], nextBeforeId: row(20, 2, 2).id };
    const merged = mergeAuditPages([one, two], 3);
    expect(merged.events.map((event) => event.atMs)).toEqual([50, 40, 30]);
    expect(merged.nextBeforeId).toBe(row(30, 1, 8).id);
  });

  it('says there is no next page only when no broker has more and everything fit', () => {
    const merged = mergeAuditPages([{ events: [row(2, 1, 1)] }, { events: [row(1, 2, 1)] }], 5);
    expect(merged.events).toHaveLength(2);
    expect(merged.nextBeforeId).toBeUndefined();
    // Same time on two brokers: the broker id orders them, the same way on every read.
    const tie = mergeAuditPages([{ events: [row(7, 1, 1)] }, { events: [row(7, 2, 1)] }], 5);
    expect(tie.events.map((event) => event.brokerId)).toEqual([2, 1]);
  });
});
