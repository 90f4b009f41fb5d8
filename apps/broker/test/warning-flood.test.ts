import { type RunningBroker, startBroker } from '@weir/test-broker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualScheduler } from './group-fixtures';
import { RawConnection, rawFrame } from './raw-socket';
import { capturedLogger } from './tls-fixtures';

/** The defaults of logging.maxWarningsPerInterval and logging.warningIntervalMs. */
const MAX_PER_INTERVAL = 10;
const INTERVAL_MS = 60_000;

async function counted(running: RunningBroker, kind: string): Promise<{ total: number; suppressed: number }> {
  const total = (await running.metrics.logWarningsTotal.get()).values;
  const suppressed = (await running.metrics.logWarningsSuppressedTotal.get()).values;
  const of = (values: typeof total) => values.find((value) => value.labels.kind === kind)?.value ?? 0;
  return { total: of(total), suppressed: of(suppressed) };
}

/** Sends `bytes` on a fresh connection and waits for the broker to close it. */
async function sendAndAwaitClose(port: number, bytes: Buffer): Promise<void> {
  const connection = await RawConnection.open(port);
  await connection.write(bytes);
  await connection.closed();
}

describe('a flood of bad input', { timeout: 60_000 }, () => {
  let running: RunningBroker;
  const scheduler = new ManualScheduler();
  const captured = capturedLogger();

  beforeAll(async () => {
    running = await startBroker({}, undefined, { logger: captured.logger, warningScheduler: scheduler });
  });
  afterAll(async () => {
    await running?.dispose();
  });

  const warningsOf = (kind: string) =>
    captured.lines().filter((line) => line.level === 'warn' && line.kind === kind);

  it('writes a bounded number of lines per kind, one summary per interval, and counts every one', async () => {
    // 120 negative size prefixes (refused frames) and 80 requests of an unknown API (refused requests).
    const negativeSize = Buffer.alloc(4);
    negativeSize.writeInt32BE(-1, 0);
    const unknownApi = rawFrame(Buffer.from([0x7f, 0x00, 0, 0, 0, 0, 0, 1, 0, 0]));
    for (let round = 0; round < 40; round++) {
      await Promise.all([
        sendAndAwaitClose(running.port, negativeSize),
        sendAndAwaitClose(running.port, negativeSize),
        sendAndAwaitClose(running.port, negativeSize),
        sendAndAwaitClose(running.port, unknownApi),
        sendAndAwaitClose(running.port, unknownApi),
      ]);
    }
    expect(await counted(running, 'frame_refused')).toEqual({ total: 120, suppressed: 110 });
    expect(await counted(running, 'request_refused')).toEqual({ total: 80, suppressed: 70 });
    expect(warningsOf('frame_refused')).toHaveLength(MAX_PER_INTERVAL);
    expect(warningsOf('request_refused')).toHaveLength(MAX_PER_INTERVAL);
    // The size and the reason are in the lines that were written; the client's bytes are not labels.
    expect(warningsOf('frame_refused')[0]).toMatchObject({ reason: 'bad_frame_size' });

    // The interval ends: one summary line per kind, then a new interval writes lines again.
    scheduler.advance(INTERVAL_MS);
    const summaries = captured.lines().filter((line) => typeof line.suppressed === 'number');
    expect(summaries.map((line) => [line.kind, line.msg])).toEqual(
      expect.arrayContaining([
        ['frame_refused', 'suppressed 110 similar warnings in the last 60 s'],
        ['request_refused', 'suppressed 70 similar warnings in the last 60 s'],
      ]),
    );
    expect(summaries).toHaveLength(2);
    await sendAndAwaitClose(running.port, negativeSize);
    expect(warningsOf('frame_refused')).toHaveLength(MAX_PER_INTERVAL + 2);
    expect(await counted(running, 'frame_refused')).toEqual({ total: 121, suppressed: 110 });
  });
});
