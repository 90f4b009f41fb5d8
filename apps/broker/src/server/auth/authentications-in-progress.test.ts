import { describe, expect, it } from 'vitest';
import { AuthenticationsInProgress } from './authentications-in-progress';

describe('AuthenticationsInProgress', () => {
  it('refuses past the address limit and admits again once a slot is given back', () => {
    const table = new AuthenticationsInProgress({ maxPerAddress: 2, maxPerUser: 10 });
    const first = table.tryStart('10.0.0.1', 'alice');
    const second = table.tryStart('10.0.0.1', undefined);
    expect(first.started && second.started).toBe(true);
    expect(table.tryStart('10.0.0.1', 'bob')).toEqual({ started: false, refusedFor: 'address' });
    expect(table.tryStart('10.0.0.2', 'bob').started).toBe(true);
    if (first.started) {
      first.slot.release();
      first.slot.release();
    }
    expect(table.fromAddress('10.0.0.1')).toBe(1);
    expect(table.forUser('alice')).toBe(0);
    expect(table.tryStart('10.0.0.1', 'carol').started).toBe(true);
  });

  it('refuses past the user limit from any address, and forgets keys nobody holds', () => {
    const table = new AuthenticationsInProgress({ maxPerAddress: 10, maxPerUser: 1 });
    const held = table.tryStart('10.0.0.1', 'alice');
    expect(table.tryStart('10.0.0.2', 'alice')).toEqual({ started: false, refusedFor: 'user' });
    // A refused start takes nothing.
    expect(table.fromAddress('10.0.0.2')).toBe(0);
    if (held.started) held.slot.release();
    expect(table.fromAddress('10.0.0.1')).toBe(0);
    expect(table.tryStart('10.0.0.2', 'alice').started).toBe(true);
  });
});
