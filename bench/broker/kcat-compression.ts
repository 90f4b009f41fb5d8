import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { CHILD_TIMEOUT_MS, PARTITION_COUNT } from './bench-config';
import { type BenchReport, progress, type Row } from './bench-report';
import { runKcat } from './kcat';
import { createTopics, startWeir, stopWeir, verifyCount, type WeirBroker } from './weir-service';

/**
 * Issue 20's row: Debian's kcat (librdkafka 2.0) producing 1 KiB records with gzip, and the bytes
 * the broker stores per record against the same records produced uncompressed. Before Weir served
 * Produce v0, librdkafka 2.0 sent gzip batches uncompressed (docs/kafka-compat.md §1.2), so the
 * ratio was 1.0; the target is the codec's own ratio on the same values (gzip of the input in
 * 1 MiB pieces, about what one produce batch holds), within 1.5× for the batch framing.
 */

const RECORD_COUNT = 20_000;
const VALUE_BYTES = 1024;
const CODEC_SAMPLE_BYTES = 1024 * 1024;
const FRAMING_ALLOWANCE = 1.5;

/** Log-line-like values (words from a small vocabulary, numbers), so gzip meets realistic text. */
function recordLines(count: number, valueBytes: number): Buffer {
  const words = [
    'GET',
    'POST',
    '/api/v1/orders',
    'user',
    'status=200',
    'status=404',
    'latency_ms',
    'region=eu-west-1',
    'trace',
    'cache=hit',
    'cache=miss',
    'bytes',
  ];
  let seed = 20;
  const next = () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed;
  };
  const lines: string[] = [];
  for (let index = 0; index < count; index++) {
    let line = `${index} `;
    while (line.length < valueBytes) line += `${words[next() % words.length]} ${next() % 100000} `;
    lines.push(line.slice(0, valueBytes));
  }
  return Buffer.from(`${lines.join('\n')}\n`);
}

function gzipRatio(input: Buffer): number {
  let compressed = 0;
  for (let at = 0; at < input.length; at += CODEC_SAMPLE_BYTES) {
    compressed += gzipSync(input.subarray(at, at + CODEC_SAMPLE_BYTES)).length;
  }
  return compressed / input.length;
}

async function storedBytesPerRecord(weir: WeirBroker, topic: string): Promise<number> {
  const directories = await weir.admin.describeLogDirs(undefined, {
    topics: [{ topic, partitions: Array.from({ length: PARTITION_COUNT }, (_, index) => index) }],
  });
  let bytes = 0;
  for (const directory of directories) {
    for (const replica of directory.replicas) if (replica.topic === topic) bytes += replica.sizeBytes;
  }
  return bytes / RECORD_COUNT;
}

export async function measureKcatCompression(root: string, report: BenchReport): Promise<void> {
  const system = 'Weir · kcat';
  const workload = 'produce 1 KiB gzip: bytes stored per record';
  await report.attempt(system, workload, async () => {
    const weir = await startWeir(root, 'weir-kcat-gzip');
    try {
      const input = join(root, 'kcat-gzip.txt');
      const lines = recordLines(RECORD_COUNT, VALUE_BYTES);
      await writeFile(input, lines);
      const perRecord = new Map<string, number>();
      for (const codec of ['none', 'gzip']) {
        const topic = `kcat-stored-${codec}`;
        await createTopics(weir, [topic]);
        progress(`kcat produce 1 KiB ${codec}, bytes stored`);
        await runKcat(
          ['-P', '-b', weir.bootstrap, '-t', topic, '-z', codec, '-X', 'acks=all', '-l', input],
          CHILD_TIMEOUT_MS,
          { onStart: () => {}, onEnd: () => {} },
        );
        await verifyCount(weir, topic, RECORD_COUNT);
        perRecord.set(codec, await storedBytesPerRecord(weir, topic));
      }
      const uncompressed = perRecord.get('none')!;
      const gzipped = perRecord.get('gzip')!;
      const codecRatio = gzipRatio(lines);
      const row: Row = {
        system,
        workload,
        note: `${gzipped.toFixed(0)} B vs ${uncompressed.toFixed(0)} B uncompressed; gzip's own ratio on these values ${codecRatio.toFixed(3)}`,
      };
      report.setTarget(
        row,
        `≤ ${FRAMING_ALLOWANCE} × gzip's own ratio (${(FRAMING_ALLOWANCE * codecRatio).toFixed(3)} × uncompressed)`,
        gzipped,
        {
          kind: 'at-most',
          threshold: FRAMING_ALLOWANCE * codecRatio * uncompressed,
          reference: 'uncompressed',
          referenceValue: uncompressed,
        },
      );
      return row;
    } finally {
      await stopWeir(root, 'weir-kcat-gzip', weir);
    }
  });
}
