import { describe, expect, it } from 'vitest';
import { RequestScheduler } from './request-scheduler';

/**
 * A scheduler on a manual clock whose deferred callbacks run when the test ends a turn, and
 * connections that start one request whenever they may; each request "costs" `turnWorkMs` of the
 * turn it starts in.
 */
function harness(targetTurnMs = 5) {
  let nowMs = 0;
  let deferred: (() => void)[] = [];
  const scheduler = new RequestScheduler({
    targetTurnMs,
    usageHalfLifeMs: 1000,
    nowMs: () => nowMs,
    defer: (callback) => deferred.push(callback),
  });
  const started: string[] = [];
  const connection = (name: string, client: string, costMs = 1) => {
    const scheduled = scheduler.register(() => tryStart());
    scheduler.assignTenant(scheduled, client);
    const tryStart = () => {
      if (!scheduler.mayStart(scheduled)) return false;
      started.push(name);
      nowMs += costMs;
      return true;
    };
    return { scheduled, tryStart, close: () => scheduler.remove(scheduled, client) };
  };
  const endTurn = () => {
    const callbacks = deferred;
    deferred = [];
    for (const callback of callbacks) callback();
  };
  return { scheduler, started, connection, endTurn, advance: (ms: number) => (nowMs += ms) };
}

describe('RequestScheduler', () => {
  it('never holds one busy connection: it starts every ready request, turn after turn', () => {
    const { scheduler, started, connection, endTurn } = harness();
    const busy = connection('busy', 'producer', 20);
    for (let turn = 0; turn < 5; turn++) {
      for (let request = 0; request < 3; request++) expect(busy.tryStart()).toBe(true);
      endTurn();
    }
    expect(started).toHaveLength(15);
    expect(scheduler.waitingCount).toBe(0);
  });

  it('shrinks the connections per turn when turns run long, and starts the least used client first', () => {
    const { scheduler, started, connection, endTurn } = harness(5);
    const loopers = Array.from({ length: 20 }, (_, index) => connection(`looper-${index}`, 'noisy', 1));
    // A first turn with all twenty: 20 ms against a 5 ms target, so about five per turn from now on.
    for (const looper of loopers) looper.tryStart();
    endTurn();
    expect(scheduler.connectionsPerTurn).toBe(5);
    started.length = 0;
    for (const looper of loopers) looper.tryStart();
    const quiet = connection('quiet', 'producer', 1);
    expect(quiet.tryStart()).toBe(false);
    expect(started).toHaveLength(5);
    // The next turn (a 5 ms one, so the limit grows a little): the quiet client (no usage) goes
    // first, then the noisy one's connections in the order they waited.
    endTurn();
    const limit = scheduler.connectionsPerTurn;
    expect(started.slice(5)).toEqual([
      'quiet',
      ...loopers.slice(5, 5 + limit - 1).map((_, index) => `looper-${5 + index}`),
    ]);
    expect(scheduler.waitingCount).toBe(16 - limit);
  });

  it('counts a client over all its connections', () => {
    const { started, connection, endTurn } = harness(5);
    const heavy = Array.from({ length: 8 }, (_, index) => connection(`heavy-${index}`, 'heavy', 2));
    for (const each of heavy) each.tryStart();
    endTurn();
    const light = connection('light', 'light', 2);
    for (let request = 0; request < 3; request++) {
      light.tryStart();
      endTurn();
    }
    // The light client started 3 requests, the heavy one 8 over its connections: of those that
    // wait, the light one goes first.
    started.length = 0;
    for (const each of heavy) each.tryStart();
    expect(light.tryStart()).toBe(false);
    const startedAtOnce = started.length;
    endTurn();
    expect(started[startedAtOnce]).toBe('light');
  });

  it('forgets a waiting connection that closes', () => {
    const { scheduler, started, connection, endTurn } = harness(1);
    const first = Array.from({ length: 6 }, (_, index) => connection(`first-${index}`, 'a', 1));
    for (const each of first) each.tryStart();
    endTurn();
    started.length = 0;
    for (const each of first) each.tryStart();
    const closing = connection('closing', 'b', 1);
    expect(closing.tryStart()).toBe(false);
    closing.close();
    for (let turn = 0; turn < 5; turn++) endTurn();
    expect(started).not.toContain('closing');
    expect(scheduler.waitingCount).toBe(0);
  });
});
