import { describe, expect, it } from 'vitest';
import { RequestScheduler, type ScheduledConnection } from './request-scheduler';

/** A scheduler on a manual clock whose deferred callbacks run when the test ends a turn. */
function harness(turnBudgetMs = 4) {
  let nowMs = 0;
  let deferred: (() => void)[] = [];
  const scheduler = new RequestScheduler({
    turnBudgetMs,
    usageHalfLifeMs: 1000,
    nowMs: () => nowMs,
    defer: (callback) => deferred.push(callback),
  });
  const started: string[] = [];
  /** A connection that, when it may, starts one request costing `costMs`. */
  const connection = (name: string, costMs: number) => {
    const scheduled: ScheduledConnection = scheduler.register(() => tryStart());
    const tryStart = () => {
      if (!scheduler.mayStart(scheduled)) return false;
      started.push(name);
      scheduler.charge(scheduled, costMs);
      return true;
    };
    return { scheduled, tryStart };
  };
  const endTurn = () => {
    const callbacks = deferred;
    deferred = [];
    for (const callback of callbacks) callback();
  };
  return { scheduler, started, connection, endTurn, advance: (ms: number) => (nowMs += ms) };
}

describe('RequestScheduler', () => {
  it('starts everything at once while a turn stays within its budget', () => {
    const { started, connection, endTurn } = harness();
    const a = connection('a', 1);
    for (let turn = 0; turn < 5; turn++) {
      expect(a.tryStart()).toBe(true);
      expect(a.tryStart()).toBe(true);
      endTurn();
    }
    expect(started).toHaveLength(10);
  });

  it('defers requests past the budget to the next turn, and then starts the least used first', () => {
    const { scheduler, started, connection, endTurn } = harness();
    const noisy = Array.from({ length: 5 }, (_, index) => connection(`noisy-${index}`, 2));
    const quiet = connection('quiet', 0.1);
    // Each noisy one has been busy lately.
    for (const each of noisy) scheduler.charge(each.scheduled, 2);
    endTurn();
    // Turn 1: the noisy ones arrive first; two fit the 4 ms budget, the rest and the quiet one wait.
    for (const each of noisy) each.tryStart();
    expect(quiet.tryStart()).toBe(false);
    expect(started).toEqual(['noisy-0', 'noisy-1']);
    expect(scheduler.waitingCount).toBe(4);
    // The next turn starts the quiet one (no usage yet) before the noisy ones that waited.
    endTurn();
    expect(started.slice(2)).toEqual(['quiet', 'noisy-2', 'noisy-3']);
    expect(scheduler.waitingCount).toBe(1);
    endTurn();
    expect(started.slice(5)).toEqual(['noisy-4']);
  });

  it('orders waiting connections by decayed usage: heavy use long ago counts less than light use now', () => {
    const { started, connection, endTurn, advance } = harness(1);
    const past = connection('past', 8);
    const recent = connection('recent', 1);
    past.tryStart();
    endTurn();
    advance(4000); // 8 ms four half-lives ago is 0.5 ms now.
    recent.tryStart();
    endTurn();
    const filler = connection('filler', 5);
    filler.tryStart();
    expect(recent.tryStart()).toBe(false);
    expect(past.tryStart()).toBe(false);
    endTurn();
    expect(started.slice(3)).toEqual(['past']);
    endTurn();
    expect(started.slice(4)).toEqual(['recent']);
  });

  it('forgets a waiting connection that closes', () => {
    const { scheduler, started, connection, endTurn } = harness(1);
    connection('first', 2).tryStart();
    const closing = connection('closing', 1);
    expect(closing.tryStart()).toBe(false);
    scheduler.remove(closing.scheduled);
    endTurn();
    expect(started).toEqual(['first']);
    expect(scheduler.waitingCount).toBe(0);
  });
});
