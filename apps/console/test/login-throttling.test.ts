import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { handleBrowserSession } from '../src/server/auth/session-routes';
import { type SecureGateway, startSecureGateway } from './secure-gateway-fixture';

/*
 * Issue #15 items 1 and 3: wrong passwords are answered late by the broker (its failure delay,
 * doubling per username), and that delay must fall on the guesser only. The broker here delays a
 * first failure by FAILURE_DELAY_MS, so anything that waited behind a wrong login took at least
 * that long; everything else is far below it.
 */

const FAILURE_DELAY_MS = 2_000;
const ORIGIN = 'http://console.test';
const READER = { username: 'reader', password: 'reader-throttle-secret-7c1e' } as const;

let gateway: SecureGateway;

beforeAll(async () => {
  gateway = await startSecureGateway({ authFailureDelayMs: FAILURE_DELAY_MS });
  await gateway.internal.upsertUser({ ...READER, mechanism: 'SCRAM-SHA-256' });
  await gateway.admin.createTopics([{ name: 'visible', partitions: 1 }]);
  await gateway.admin.createAcls([
    {
      resourceType: 'TOPIC',
      resourceName: 'visible',
      patternType: 'LITERAL',
      principal: `User:${READER.username}`,
      host: '*',
      operation: 'DESCRIBE',
      permission: 'ALLOW',
    },
  ]);
}, 60_000);

afterAll(async () => {
  await gateway?.dispose();
});

function browserLogin(username: string, password: string): Promise<Response> {
  return handleBrowserSession(
    new Request(`${ORIGIN}/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, password }),
    }),
    gateway.auth,
  );
}

/** A promise with a flag saying whether it has settled, and when (ms since `sinceMs`). */
function tracked<T>(promise: Promise<T>, sinceMs: number) {
  const state = { settled: false, afterMs: Number.NaN, value: promise };
  state.value = promise.finally(() => {
    state.settled = true;
    state.afterMs = performance.now() - sinceMs;
  });
  return state;
}

/** WeirVerifyCredentials requests a gateway's broker has received. */
async function verifyRequestsReceived(of: SecureGateway): Promise<number> {
  const metric = await of.broker.metrics.requestsTotal.get();
  return metric.values
    .filter((value) => value.labels.api === 'WeirVerifyCredentials')
    .reduce((sum, value) => sum + value.value, 0);
}

describe('wrong logins in flight (issue #15, item 1)', () => {
  it('hold up neither a correct login nor a logged-in user’s API call', async () => {
    const reader = await gateway.sessionOf(READER.username, READER.password);
    const startedMs = performance.now();
    // Twelve strangers' guesses at once, each at its own username (as a password spray does).
    const wrong = Array.from({ length: 12 }, (_, index) =>
      tracked(browserLogin(`stranger-${index}`, 'guess'), startedMs),
    );
    await vi.waitFor(() => expect(gateway.credentials.checksInFlight).toBe(12), { timeout: 20_000 });

    const loginStartedMs = performance.now();
    const login = await browserLogin(READER.username, READER.password);
    const loginMs = performance.now() - loginStartedMs;
    const callStartedMs = performance.now();
    const topics = await gateway.rest('GET', '/topics', {
      headers: { authorization: `Bearer ${reader.id}` },
    });
    const callMs = performance.now() - callStartedMs;

    expect(login.status).toBe(200);
    expect(topics.status).toBe(200);
    expect((await topics.json()).topics.map((topic: { name: string }) => topic.name)).toEqual(['visible']);
    // Neither waited for a guess: every guess is still waiting out the broker's delay.
    expect(wrong.filter((guess) => guess.settled)).toEqual([]);
    expect(loginMs).toBeLessThan(FAILURE_DELAY_MS);
    expect(callMs).toBeLessThan(FAILURE_DELAY_MS);

    // Each guesser waited the delay itself, and was told its password was wrong.
    const answers = await Promise.all(wrong.map((guess) => guess.value));
    expect(answers.map((answer) => answer.status)).toEqual(Array(12).fill(401));
    for (const guess of wrong) expect(guess.afterMs).toBeGreaterThanOrEqual(FAILURE_DELAY_MS - 50);
  });
});

describe('throttled logins (issue #15, item 3)', () => {
  it('answers a third parallel guess at one user with 429 and Retry-After at once', async () => {
    const startedMs = performance.now();
    const first = tracked(browserLogin('victim', 'guess-1'), startedMs);
    const second = tracked(browserLogin('victim', 'guess-2'), startedMs);
    const third = await browserLogin('victim', 'guess-3');
    expect(third.status).toBe(429);
    const retryAfterSeconds = Number(third.headers.get('retry-after'));
    expect(retryAfterSeconds).toBeGreaterThanOrEqual(1);
    expect(await third.json()).toMatchObject({
      code: 'TOO_MANY_REQUESTS',
      retryAfterMs: retryAfterSeconds * 1000,
      message: expect.stringContaining(`try again in ${retryAfterSeconds} s`),
    });
    // Refused before it was checked: the two before it are still waiting for their answers.
    expect([first.settled, second.settled]).toEqual([false, false]);
    expect((await first.value).status).toBe(401);
    expect((await second.value).status).toBe(401);
  });

  it('answers 429 when the broker’s delay outlasts the check, and never sends the check again', async () => {
    const impatient = await startSecureGateway({
      authFailureDelayMs: FAILURE_DELAY_MS,
      credentialLimits: { checkTimeoutMs: FAILURE_DELAY_MS / 4 },
    });
    try {
      const before = await verifyRequestsReceived(impatient);
      const response = await impatient.rest('POST', '/sessions', {
        body: { username: 'slowpoke', password: 'wrong' },
      });
      expect(response.status).toBe(429);
      expect(Number(response.headers.get('retry-after'))).toBe(Math.ceil(FAILURE_DELAY_MS / 4 / 1000));
      // Nothing is sent again: a retry would count as one more failure on the broker. The check's
      // connection was closed (its late answer could not be matched) and no other is open.
      expect(impatient.credentials.checksInFlight).toBe(0);
      expect(impatient.credentials.openConnections).toBe(0);
      // The broker finishes the one check it got (it counts a request once answered).
      await vi.waitFor(async () => expect(await verifyRequestsReceived(impatient)).toBe(before + 1), {
        timeout: 20_000,
      });
    } finally {
      await impatient.dispose();
    }
  });

  it('lets a correct login waiting for a connection in, however long the guesses ahead of it take', async () => {
    const narrow = await startSecureGateway({
      authFailureDelayMs: FAILURE_DELAY_MS,
      credentialLimits: { maxConnections: 2, checkTimeoutMs: FAILURE_DELAY_MS * 2 },
    });
    try {
      await narrow.internal.upsertUser({ ...READER, mechanism: 'SCRAM-SHA-256' });
      const startedMs = performance.now();
      const login = (username: string, password: string) =>
        narrow.rest('POST', '/sessions', { body: { username, password } });
      const guesses = [
        tracked(login('guessed-a', 'x'), startedMs),
        tracked(login('guessed-b', 'x'), startedMs),
      ];
      await vi.waitFor(() => expect(narrow.credentials.checksInFlight).toBe(2), { timeout: 20_000 });
      const queued = tracked(login(READER.username, READER.password), startedMs);
      const answer = await queued.value;
      expect(answer.status).toBe(201);
      expect((await answer.json()).username).toBe(READER.username);
      // It waited for a connection a guess held for the broker's whole delay, and still got in.
      expect(queued.afterMs).toBeGreaterThanOrEqual(FAILURE_DELAY_MS - 50);
      expect((await Promise.all(guesses.map((guess) => guess.value))).map((r) => r.status)).toEqual([
        401, 401,
      ]);
    } finally {
      await narrow.dispose();
    }
  });
});
