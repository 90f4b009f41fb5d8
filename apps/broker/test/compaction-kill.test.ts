import { existsSync, watch } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Admin, Client, Producer } from '@weir/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CLEANING_DIRECTORY,
  SWAP_MANIFEST_FILE,
  type SwapManifest,
} from '../src/log/compaction/cleaning-files';
import { LOG_SUFFIX, offsetFileName } from '../src/log/log-files';
import { type ChildBroker, killChildBroker, startChildBroker, stopChildBroker } from './broker-child-process';
import { expectExitCode, weir } from './cli-runner';
import { seededRandom } from './fixtures/seeded-random';
import { type KcatRecord, kcatRecords } from './kcat-clients';
import { temporaryDirectory } from './log-fixtures';

/**
 * A broker SIGKILLed while its cleaner compacts a topic (issue #19: "kill -9 during cleaning never
 * loses a survivor"), over rounds of keyed writes. Each round writes more values for the same keys,
 * waits until a clean is under way and kills the broker at a seeded random moment of it: most
 * rounds at a random delay after the clean's `cleaning/` directory appears, the others as its swap
 * manifest appears (docs/architecture.md §4, compaction). After every restart kcat reads the
 * partition from the start to its end: each key's latest acknowledged value is at the offset its
 * write was acknowledged at, and every record read is one that was acknowledged at that offset.
 * At the end the broker compacts the topic down to one record per key and `weir log check` finds
 * every segment whole. `WEIR_COMPACTION_KILL_SEED` replays a failure's seed.
 */

const SEED = Number(process.env.WEIR_COMPACTION_KILL_SEED ?? Date.now() % 0x7fffffff);
const ROUNDS = 10;
const TOPIC = 'kv';
const KEYS = 400;
const RECORDS_PER_ROUND = 3000;
const RECORDS_PER_SEND = 150;
const VALUE_BYTES = 200;
/**
 * Small segments and a throttled cleaner make a clean long (many segments rewritten and swapped
 * one by one), so a random moment after it starts is mostly inside it; segment.ms rolls the active
 * segment soon after a round's writes, so every round has a closed dirty segment to clean.
 */
const TOPIC_CONFIGS = {
  'cleanup.policy': 'compact',
  'segment.bytes': String(32 * 1024),
  'segment.ms': '1000',
  'min.cleanable.dirty.ratio': '0.01',
};
const CLEANER = { backoffMs: 20, ioMaxBytesPerSecond: 1024 * 1024 };
/** The longest delay after a clean's start at which a kill lands. */
const MAX_KILL_DELAY_MS = 800;
/** The longest delay after a swap's manifest appears at which a kill lands. */
const MAX_SWAP_DELAY_MS = 12;

interface Written {
  readonly key: string;
  readonly value: string;
}

interface KillPoint {
  readonly round: number;
  readonly mode: 'during-clean' | 'at-swap';
  /** From the clean's directory or the swap's manifest appearing to the kill. */
  readonly delayMs: number;
  /** What the kill left in the partition directory: an unfinished clean, and how far its swap got. */
  readonly left: string;
}

/** kcat's read of the partition from its first offset to its end: offset, key and value of each record. */
async function readPartition(bootstrap: string): Promise<KcatRecord[]> {
  return kcatRecords({ bootstrap }, TOPIC, 0);
}

/**
 * Resolves once `name` exists in `directory`, now or later (inotify through fs.watch, so the
 * moment is not a poll interval late); rejects after `timeoutMs`.
 */
function whenPresent(directory: string, name: string, timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const watcher = watch(directory);
    const finish = (error?: Error) => {
      clearTimeout(timer);
      watcher.close();
      if (error) reject(error);
      else resolve();
    };
    const timer = setTimeout(
      () => finish(new Error(`no ${name} in ${directory} within ${timeoutMs} ms`)),
      timeoutMs,
    );
    watcher.on('change', (_, filename) => {
      if (filename === name && existsSync(join(directory, name))) finish();
    });
    watcher.on('error', (error) => finish(error));
    // Checked after the watch began, so an entry created in between is not missed.
    if (existsSync(join(directory, name))) finish();
  });
}

/**
 * What a kill left of a clean in a partition directory: nothing, a clean's `cleaning/` directory
 * (discarded at the next start), or a swap manifest with how far the swap got (finished at the
 * next start): how many replaced segments were renamed `.deleted`, and whether the new segment's
 * log file had moved in.
 */
async function unfinishedClean(directory: string): Promise<string> {
  const names = new Set(await readdir(directory));
  if (!names.has(SWAP_MANIFEST_FILE)) return names.has(CLEANING_DIRECTORY) ? 'cleaning' : 'nothing';
  const manifest = JSON.parse(await readFile(join(directory, SWAP_MANIFEST_FILE), 'utf8')) as SwapManifest;
  const pending = new Set(await readdir(join(directory, CLEANING_DIRECTORY)).catch(() => []));
  const newLogPending = pending.has(offsetFileName(manifest.baseOffset, LOG_SUFFIX));
  // The first replaced segment has the new one's name, so it counts as renamed once that moved in.
  const renamed = manifest.replacedBaseOffsets.filter(
    (baseOffset, index) =>
      !names.has(offsetFileName(baseOffset, LOG_SUFFIX)) || (index === 0 && !newLogPending),
  ).length;
  return `manifest: ${renamed}/${manifest.replacedBaseOffsets.length} replaced renamed, new log ${newLogPending ? 'pending' : 'moved in'}`;
}

describe(`a broker SIGKILLed while it compacts, ${ROUNDS} times (seed ${SEED})`, () => {
  let directory: { path: string; cleanup: () => Promise<void> };
  let broker: ChildBroker | undefined;
  /** What each start found of a clean a kill interrupted (the log loader's lines). */
  const recoveries: string[] = [];
  let starts = 0;
  const partitionDirectory = () => join(directory.path, 'logs', `${TOPIC}-0`);

  beforeAll(async () => {
    directory = await temporaryDirectory('weir-compaction-kill-');
  });
  afterAll(async () => {
    // A failed or timed-out run may have left the broker writing into the directory.
    await killChildBroker(broker);
    await directory?.cleanup();
  });

  async function start(): Promise<{ bootstrap: string }> {
    broker = await startChildBroker(
      {
        dataDir: directory.path,
        listeners: { client: { host: '127.0.0.1', port: 0 }, internal: { enabled: false } },
        topics: { autoCreateEnable: false },
        groups: { offsetsTopicPartitions: 1 },
        log: { cleaner: CLEANER },
        logging: { level: 'info' },
      },
      { log: true },
    );
    // The start's log lines (an interrupted clean found) may come in after its `ready` line.
    await broker.log!.waitFor((line) => line.msg === 'broker started', 'the start to be logged');
    for (const line of broker.log!.entries()) {
      if (typeof line.msg === 'string' && line.msg.startsWith('an interrupted clean was')) {
        recoveries.push(`start ${starts}: ${line.msg}`);
      }
    }
    starts += 1;
    return { bootstrap: `127.0.0.1:${broker.port}` };
  }

  it('keeps every key’s latest acknowledged value at its offset, and never gives an offset two values', async () => {
    const random = seededRandom(SEED);
    const failure = (what: string) => `${what} (seed ${SEED}; replay with WEIR_COMPACTION_KILL_SEED=${SEED})`;
    // Every acknowledged record by offset, across all rounds; and each key's latest offset.
    const acknowledged = new Map<number, Written>();
    const latestOffsetOfKey = new Map<string, number>();
    const reused: string[] = [];
    const kills: KillPoint[] = [];

    /** Reads the partition with kcat and checks it against every acknowledgement so far. */
    async function check(bootstrap: string, after: string): Promise<number> {
      const client = new Client({ bootstrapServers: [bootstrap] });
      let endOffset: number;
      try {
        const [range] = await new Admin(client).topicOffsets(TOPIC);
        endOffset = Number(range!.latest);
      } finally {
        await client.close();
      }
      expect(endOffset, failure(`the log end ${after}`)).toBe(acknowledged.size);
      const records = await readPartition(bootstrap);
      const unacknowledged: string[] = [];
      const outOfOrder: number[] = [];
      let previous = -1;
      const read = new Map<number, Written>();
      for (const { offset, key, value: stored } of records) {
        // The test writes no tombstones; a null value would be an invented record.
        const value = stored ?? '<null>';
        if (offset <= previous) outOfOrder.push(offset);
        previous = offset;
        read.set(offset, { key, value });
        const written = acknowledged.get(offset);
        if (written?.key !== key || written.value !== value) unacknowledged.push(`${offset} ${key} ${value}`);
      }
      const lost: string[] = [];
      for (const [key, offset] of latestOffsetOfKey) {
        if (read.get(offset)?.value !== acknowledged.get(offset)!.value) lost.push(`${key}@${offset}`);
      }
      expect(outOfOrder, failure(`offsets read out of order ${after}`)).toEqual([]);
      expect(unacknowledged, failure(`records read that were not acknowledged there ${after}`)).toEqual([]);
      expect(lost, failure(`latest acknowledged values missing ${after}`)).toEqual([]);
      // The read reached the end: the last record written is the latest of its key.
      expect(records.at(-1)?.offset, failure(`the last offset read ${after}`)).toBe(endOffset - 1);
      return records.length;
    }

    /** Writes a round's records with acks=all and records where each was acknowledged. */
    async function write(bootstrap: string, round: number, records: number): Promise<void> {
      const client = new Client({ bootstrapServers: [bootstrap] });
      try {
        if (round === 0) {
          await new Admin(client).createTopics([
            { name: TOPIC, partitions: 1, replicationFactor: 1, configs: TOPIC_CONFIGS },
          ]);
        }
        const producer = new Producer(client);
        for (let sent = 0; sent < records; sent += RECORDS_PER_SEND) {
          const messages = Array.from({ length: Math.min(RECORDS_PER_SEND, records - sent) }, (_, index) => ({
            partition: 0,
            key: `k${Math.floor(random() * KEYS)}`,
            value: `r${round}-${sent + index}`.padEnd(VALUE_BYTES, '.'),
          }));
          const stored = await producer.send({ topic: TOPIC, messages });
          stored.forEach(({ offset }, index) => {
            const at = Number(offset);
            const { key, value } = messages[index]!;
            if (acknowledged.has(at)) reused.push(`${at}: ${acknowledged.get(at)!.value} then ${value}`);
            acknowledged.set(at, { key, value });
            latestOffsetOfKey.set(key, at);
          });
        }
        await producer.close();
      } finally {
        await client.close();
      }
      expect(reused, failure('offsets acknowledged twice')).toEqual([]);
    }

    for (let round = 0; round < ROUNDS; round++) {
      const { bootstrap } = await start();
      if (round > 0) await check(bootstrap, `after kill ${round - 1} (${JSON.stringify(kills.at(-1))})`);
      await write(bootstrap, round, RECORDS_PER_ROUND);

      // Kill inside the clean that follows, at a random moment of it; a swap is a few milliseconds
      // of file operations after its manifest, so kills at one land at different steps of it.
      const mode = random() < 0.6 ? 'during-clean' : 'at-swap';
      const delayMs = Math.floor(
        random() * (mode === 'during-clean' ? MAX_KILL_DELAY_MS : MAX_SWAP_DELAY_MS),
      );
      await whenPresent(
        partitionDirectory(),
        mode === 'during-clean' ? CLEANING_DIRECTORY : SWAP_MANIFEST_FILE,
        20_000,
      );
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      await killChildBroker(broker);
      const left = await unfinishedClean(partitionDirectory());
      kills.push({ round, mode, delayMs, left });
    }

    // The broker goes on cleaning after the last kill, down to one record per key: segment.ms
    // closes the last segment after a last write, so the cleaner reaches the log end.
    const { bootstrap } = await start();
    await check(bootstrap, `after kill ${ROUNDS - 1} (${JSON.stringify(kills.at(-1))})`);
    // A segment reloaded at start rolls by time only after its next append.
    await write(bootstrap, ROUNDS, RECORDS_PER_SEND);
    await broker!.log!.waitFor(
      (line) =>
        line.msg === 'cleaned a compacted partition' &&
        line.topic === TOPIC &&
        line.cleanedUpToOffset === acknowledged.size,
      'the cleaner to reach the log end after the last restart',
    );
    expect(await check(bootstrap, 'after the last clean'), failure('records left')).toBe(
      latestOffsetOfKey.size,
    );
    await stopChildBroker(broker);
    expectExitCode(await weir(['log', 'check', '--all', '--data-dir', directory.path]), 0);

    console.log(
      `compaction kill seed ${SEED}: kills ${JSON.stringify(kills)}; recoveries ${JSON.stringify(recoveries)}`,
    );
    // The test proves something only if kills land inside cleans, not only between them.
    expect(
      kills.filter((kill) => kill.left !== 'nothing').length,
      failure('kills that left an unfinished clean'),
    ).toBeGreaterThan(0);
  }, 150_000);
});
