import { describe, expect, it } from 'vitest';
import { nextSaslState, SASL_TRANSITIONS, type SaslEvent, type SaslState } from './sasl-states';

const STATES: readonly SaslState[] = [
  'awaiting-handshake',
  'awaiting-authenticate',
  'awaiting-raw-token',
  'authenticated',
  'failed',
];
const EVENTS: readonly SaslEvent[] = [
  'mechanism-accepted',
  'mechanism-accepted-raw',
  'mechanism-refused',
  'challenged',
  'authenticated',
  'rejected',
];

/** Every legal move written out by hand: anything the table allows beyond these fails the test. */
const EXPECTED: ReadonlyMap<string, SaslState> = new Map([
  ['awaiting-handshake/mechanism-accepted', 'awaiting-authenticate'],
  ['awaiting-handshake/mechanism-accepted-raw', 'awaiting-raw-token'],
  ['awaiting-handshake/mechanism-refused', 'failed'],
  ['awaiting-authenticate/challenged', 'awaiting-authenticate'],
  ['awaiting-authenticate/authenticated', 'authenticated'],
  ['awaiting-authenticate/rejected', 'failed'],
  ['awaiting-raw-token/challenged', 'awaiting-raw-token'],
  ['awaiting-raw-token/authenticated', 'authenticated'],
  ['awaiting-raw-token/rejected', 'failed'],
]);

describe('SASL transition table', () => {
  it.each(STATES.flatMap((state) => EVENTS.map((event) => ({ state, event }))))(
    '$state on $event',
    ({ state, event }) => {
      expect(nextSaslState(state, event)).toBe(EXPECTED.get(`${state}/${event}`));
    },
  );

  it('lists only known states as targets', () => {
    for (const moves of Object.values(SASL_TRANSITIONS)) {
      for (const target of Object.values(moves)) expect(STATES).toContain(target);
    }
  });

  it('makes authenticated and failed final', () => {
    for (const event of EVENTS) {
      expect(nextSaslState('authenticated', event)).toBeUndefined();
      expect(nextSaslState('failed', event)).toBeUndefined();
    }
  });

  it('reaches authenticated only through a handshake and an acceptance', () => {
    const reachable = new Set<SaslState>(['awaiting-handshake']);
    let grew = true;
    while (grew) {
      grew = false;
      for (const state of [...reachable]) {
        for (const event of EVENTS) {
          const next = nextSaslState(state, event);
          if (next !== undefined && !reachable.has(next)) {
            reachable.add(next);
            grew = true;
          }
        }
      }
    }
    expect([...reachable].sort()).toEqual([...STATES].sort());
    expect(nextSaslState('awaiting-handshake', 'authenticated')).toBeUndefined();
  });
});
