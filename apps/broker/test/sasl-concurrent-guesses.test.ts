import {
  ErrorCode,
  SaslAuthenticate,
  SaslHandshake,
  type SaslOptions,
  saslClientExchange,
} from '@weir/protocol';
import { type RunningBroker, startBroker } from '@weir/test-broker';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualScheduler, pollUntil } from './group-fixtures';
import { RawConnection } from './raw-socket';
import { ADMIN, saslBrokerConfig } from './sasl-fixtures';

/** The outcome of one SASL exchange over SaslAuthenticate v1. */
interface ExchangeOutcome {
  errorCode: number;
  errorMessage: string | null;
}

/** Runs `sasl` from `localAddress` to the end (every round) and returns the last answer. */
async function exchange(port: number, localAddress: string, sasl: SaslOptions): Promise<ExchangeOutcome> {
  const connection = await RawConnection.open(port, 5_000, localAddress);
  try {
    const handshake = await connection.request(SaslHandshake, 1, { mechanism: sasl.mechanism });
    expect(handshake.errorCode).toBe(ErrorCode.NONE);
    const client = saslClientExchange(sasl);
    let token: Buffer | undefined = client.initialBytes();
    for (;;) {
      // Held failures wait for the test's scheduler, so the wait is longer than a request's.
      const answer = await connection.request(SaslAuthenticate, 1, { authBytes: token }, 30_000);
      if (answer.errorCode !== ErrorCode.NONE) return answer;
      token = await client.next(answer.authBytes);
      if (token === undefined) return answer;
    }
  } finally {
    if (!connection.isClosed) await connection.destroy();
  }
}

async function authentications(running: RunningBroker, result: string): Promise<number> {
  const { values } = await running.metrics.authenticationsTotal.get();
  return values
    .filter((value) => value.labels.result === result)
    .reduce((sum, value) => sum + value.value, 0);
}

describe('concurrent authentications per address and per user', { timeout: 60_000 }, () => {
  let running: RunningBroker | undefined;
  afterEach(async () => {
    await running?.dispose();
    running = undefined;
  });

  async function start(security: {
    maxConcurrentAuthenticationsPerAddress?: number;
    maxConcurrentAuthenticationsPerUser?: number;
  }) {
    const scheduler = new ManualScheduler();
    const config = saslBrokerConfig(1000);
    running = await startBroker({ ...config, security: { ...config.security, ...security } }, undefined, {
      authScheduler: scheduler,
    });
    return { running, scheduler };
  }

  it('serves 4 of 50 parallel wrong guesses from one address and refuses the rest, while a login from elsewhere succeeds', async () => {
    const { running, scheduler } = await start({ maxConcurrentAuthenticationsPerAddress: 4 });
    const answered: ExchangeOutcome[] = [];
    const guesses = Array.from({ length: 50 }, (_, index) =>
      exchange(running.port, '127.0.0.1', {
        mechanism: 'PLAIN',
        username: ADMIN.username,
        password: `guess-${index}`,
      }).then((outcome) => {
        answered.push(outcome);
        return outcome;
      }),
    );
    // The refused guesses are answered at once; the 4 that were checked wait out their delay.
    await pollUntil(() => answered.length === 46, '46 refused guesses');
    expect(scheduler.pendingTasks).toBe(4);
    expect(answered.every((outcome) => outcome.errorCode === ErrorCode.SASL_AUTHENTICATION_FAILED)).toBe(
      true,
    );
    expect(
      answered.every((outcome) =>
        outcome.errorMessage?.includes('too many authentications in progress from this address'),
      ),
    ).toBe(true);

    // The same user from another address is not held up: it succeeds while the 4 still wait.
    const honest = await exchange(running.port, '127.0.0.2', { mechanism: 'SCRAM-SHA-512', ...ADMIN });
    expect(honest.errorCode).toBe(ErrorCode.NONE);
    expect(answered).toHaveLength(46);
    // From the guessing address, nothing more is checked until a held guess ends.
    const meanwhile = await exchange(running.port, '127.0.0.1', { mechanism: 'SCRAM-SHA-512', ...ADMIN });
    expect(meanwhile.errorCode).toBe(ErrorCode.SASL_AUTHENTICATION_FAILED);

    scheduler.advance(16_000);
    const outcomes = await Promise.all(guesses);
    const failed = outcomes.filter((outcome) => !outcome.errorMessage?.includes('too many'));
    expect(failed).toHaveLength(4);
    expect(failed.every((outcome) => outcome.errorCode === ErrorCode.SASL_AUTHENTICATION_FAILED)).toBe(true);
    expect(await authentications(running, 'refused')).toBe(47);
    expect(await authentications(running, 'failure')).toBe(4);
    // Once the held guesses ended, the address may authenticate again.
    expect((await exchange(running.port, '127.0.0.1', { mechanism: 'PLAIN', ...ADMIN })).errorCode).toBe(
      ErrorCode.NONE,
    );
  });

  it('caps the guesses at one user from many addresses, and not other users', async () => {
    const { running, scheduler } = await start({ maxConcurrentAuthenticationsPerUser: 3 });
    const guesses = Array.from({ length: 5 }, (_, index) =>
      exchange(running.port, `127.0.0.${10 + index}`, {
        mechanism: 'SCRAM-SHA-256',
        username: 'alice',
        password: 'guess',
      }),
    );
    await pollUntil(() => scheduler.pendingTasks === 3, '3 guesses at alice held in their delay');
    expect((await exchange(running.port, '127.0.0.20', { mechanism: 'PLAIN', ...ADMIN })).errorCode).toBe(
      ErrorCode.NONE,
    );
    scheduler.advance(16_000);
    const outcomes = await Promise.all(guesses);
    const refused = outcomes.filter((outcome) =>
      outcome.errorMessage?.includes('too many authentications in progress for this user'),
    );
    expect(refused).toHaveLength(2);
    expect(outcomes.every((outcome) => outcome.errorCode === ErrorCode.SASL_AUTHENTICATION_FAILED)).toBe(
      true,
    );
  });
});
