import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { type RunningBroker, startBroker } from '@weir/test-broker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kcat } from './kcat-clients';
import { RawClient } from './raw-client';
import { storedCodecs } from './stored-batches';

const run = promisify(execFile);

/**
 * Issue 20 items 1 and 2, judged by Debian's kcat (librdkafka 2.0.2). With the broker's version
 * ranges, kcat compresses with every codec it is asked for (it needs Produce v0 in the range for
 * gzip, snappy and lz4) and the stored batches keep that codec. With `api.version.request=false`
 * and `broker.version.fallback=0.9.0` it speaks Kafka 0.9's protocol (Produce and Fetch v1 with
 * magic 0 messages, ListOffsets and Metadata v0), so the broker's conversions are what it produces
 * and consumes through; its protocol debug lines show the versions it used. (librdkafka asks for
 * ApiVersions whenever the fallback is 0.10 or later, so magic 1 is judged by kafka-python.)
 */
describe('legacy message formats with kcat', () => {
  let broker: RunningBroker;
  let raw: RawClient;

  beforeAll(async () => {
    broker = await startBroker({ topics: { autoCreateEnable: true, defaultPartitions: 1 } });
    raw = await RawClient.connect(broker.bootstrap);
  });
  afterAll(async () => {
    raw?.close();
    await broker?.dispose();
  });

  /*
   * librdkafka sends a batch uncompressed when compressing would not make it smaller, which a batch
   * of the first line or two alone can be: a CI run stored one such batch beside the gzip ones. A
   * linger longer than kcat takes to read its input puts every line in one batch, so the codec the
   * stored batches keep is the producer's, as the tests mean to check.
   */
  const ONE_BATCH = ['-X', 'queue.buffering.max.ms=1000'];

  /** kcat with its protocol and message debug output, which names each request's version. */
  async function kcatDebug(
    args: readonly string[],
    input?: string,
  ): Promise<{ stdout: string; stderr: string }> {
    const child = run(
      'kcat',
      ['-b', broker.bootstrap, '-X', 'broker.address.family=v4', '-d', 'protocol,msg', ...args],
      {
        timeout: 30_000,
        maxBuffer: 64 * 1024 * 1024,
      },
    );
    if (input !== undefined) child.child.stdin!.end(input);
    return await child;
  }

  it.each(['gzip', 'snappy', 'lz4', 'zstd'])(
    'kcat compresses with %s and the stored batches keep it',
    async (codec) => {
      const topic = `compressed-${codec}`;
      const values = Array.from(
        { length: 200 },
        (_, index) => `${codec} record ${index} ${'abc'.repeat(50)}`,
      );
      const produced = await kcatDebug(
        ['-P', '-t', topic, '-p', '0', '-z', codec, ...ONE_BATCH],
        `${values.join('\n')}\n`,
      );
      expect(produced.stderr).not.toContain('does not support compression');
      const codecs = await storedCodecs(raw, topic, 0);
      expect(codecs.length).toBeGreaterThan(0);
      expect(new Set(codecs)).toEqual(new Set([codec]));
      const consumed = await kcat(broker, ['-C', '-t', topic, '-p', '0', '-o', 'beginning', '-e']);
      expect(consumed.trim().split('\n')).toEqual(values);
    },
  );

  const legacyClients = [{ fallback: '0.9.0', produceVersion: 1, fetchVersion: 1 }];
  const legacyCodecs = ['none', 'gzip', 'snappy', 'lz4'];

  describe.each(legacyClients)(
    'kcat speaking Kafka $fallback',
    ({ fallback, produceVersion, fetchVersion }) => {
      const old = ['-X', 'api.version.request=false', '-X', `broker.version.fallback=${fallback}`];

      it.each(legacyCodecs)('produces and consumes %s records at their offsets', async (codec) => {
        const topic = `legacy-${fallback.replaceAll('.', '-')}-${codec}`;
        const values = Array.from(
          { length: 150 },
          (_, index) => `key-${index % 5}:${codec} ${index} ${'xyz'.repeat(index % 40)}`,
        );
        const produced = await kcatDebug(
          [...old, '-P', '-t', topic, '-p', '0', '-K', ':', '-z', codec, ...ONE_BATCH],
          `${values.join('\n')}\n`,
        );
        expect(produced.stderr).toMatch(new RegExp(`ProduceRequest \\(v${produceVersion}\\b`));
        expect(produced.stderr).not.toContain('does not support compression');

        // Stored as RecordBatch v2 with the producer's codec.
        const codecs = await storedCodecs(raw, topic, 0);
        expect(codecs.length).toBeGreaterThan(0);
        expect(new Set(codecs)).toEqual(new Set([codec]));

        const format = ['-f', '%o %k %s\\n'];
        const expected = values.map((line, index) => `${index} ${line.replace(':', ' ')}`);
        const consumedOld = await kcatDebug([
          ...old,
          '-C',
          '-t',
          topic,
          '-p',
          '0',
          '-o',
          'beginning',
          '-e',
          ...format,
        ]);
        expect(consumedOld.stderr).toMatch(new RegExp(`FetchRequest \\(v${fetchVersion}\\b`));
        expect(consumedOld.stdout.trim().split('\n')).toEqual(expected);
        // A current client reads the same records at the same offsets.
        const consumedNew = await kcat(broker, [
          '-C',
          '-t',
          topic,
          '-p',
          '0',
          '-o',
          'beginning',
          '-e',
          ...format,
        ]);
        expect(consumedNew.trim().split('\n')).toEqual(expected);
      });

      it('consumes zstd batches a current producer stored, uncompressed', async () => {
        const topic = `legacy-${fallback.replaceAll('.', '-')}-from-zstd`;
        const values = Array.from({ length: 50 }, (_, index) => `zstd ${index}`);
        await kcat(broker, ['-P', '-t', topic, '-p', '0', '-z', 'zstd'], `${values.join('\n')}\n`);
        const consumed = await kcat(broker, [...old, '-C', '-t', topic, '-p', '0', '-o', 'beginning', '-e']);
        expect(consumed.trim().split('\n')).toEqual(values);
      });

      it('reads the earliest and latest offsets (ListOffsets v0) and lists the topic (Metadata v0)', async () => {
        const topic = `legacy-${fallback.replaceAll('.', '-')}-offsets`;
        await kcat(broker, ['-P', '-t', topic, '-p', '0'], 'a\nb\nc\n');
        const offsets = await kcatDebug([...old, '-Q', '-t', `${topic}:0:-1`]);
        expect(offsets.stderr).toMatch(/OffsetRequest \(v0\b|ListOffsetsRequest \(v0\b/);
        expect(offsets.stdout).toContain(`${topic} [0] offset 3`);
        const earliest = await kcat(broker, [...old, '-Q', '-t', `${topic}:0:-2`]);
        expect(earliest).toContain(`${topic} [0] offset 0`);
        const listing = await kcatDebug([...old, '-L', '-t', topic]);
        expect(listing.stderr).toMatch(/MetadataRequest \(v0\b/);
        expect(listing.stdout).toMatch(new RegExp(`topic "${topic}" with 1 partitions`));
      });
    },
  );
});
