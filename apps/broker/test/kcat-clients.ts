import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { RunningBroker } from '@weir/test-broker';

const run = promisify(execFile);

/** How long one kcat run may take before the test fails instead of hanging. */
const KCAT_TIMEOUT_MS = 30_000;
const KCAT_MAX_OUTPUT_BYTES = 64 * 1024 * 1024;

/**
 * Runs kcat (Debian's, librdkafka 2.0.2) against a test broker over IPv4 with `args`, writing
 * `input` to its standard input when given; resolves with what it printed and fails the test on
 * a non-zero exit.
 */
export async function kcat(
  broker: Pick<RunningBroker, 'bootstrap'>,
  args: readonly string[],
  input?: string,
): Promise<string> {
  const child = run('kcat', ['-b', broker.bootstrap, '-X', 'broker.address.family=v4', ...args], {
    timeout: KCAT_TIMEOUT_MS,
    maxBuffer: KCAT_MAX_OUTPUT_BYTES,
  });
  if (input !== undefined) child.child.stdin!.end(input);
  return (await child).stdout;
}

/** One record as kcat printed it: a null value (a tombstone) is `null`, not an empty string. */
export interface KcatRecord {
  offset: number;
  key: string;
  value: string | null;
}

/**
 * The `-f` format that {@link parseKcatRecords} reads: offset, key, value length (-1 for a null
 * value) and value. Keys must not hold spaces; values may.
 */
export const KCAT_RECORD_FORMAT = '%o %k %S %s\\n';

/** Parses kcat output printed with {@link KCAT_RECORD_FORMAT}, one record a line. */
export function parseKcatRecords(output: string): KcatRecord[] {
  return output
    .split('\n')
    .filter((line) => line.length > 0)
    .map((line) => {
      const [offset, key, length] = line.split(' ', 3);
      const value = line.slice(`${offset} ${key} ${length} `.length);
      return { offset: Number(offset), key: key!, value: length === '-1' ? null : value };
    });
}

/**
 * Every record of one partition from its start to its end as kcat reads it, with `args` added
 * (such as `-X isolation.level=read_uncommitted`; librdkafka reads read_committed by default).
 */
export async function kcatRecords(
  broker: Pick<RunningBroker, 'bootstrap'>,
  topic: string,
  partition: number,
  args: readonly string[] = [],
): Promise<KcatRecord[]> {
  const output = await kcat(broker, [
    '-C',
    '-t',
    topic,
    '-p',
    String(partition),
    '-o',
    'beginning',
    '-e',
    '-q',
    '-f',
    KCAT_RECORD_FORMAT,
    ...args,
  ]);
  return parseKcatRecords(output);
}

/** The partition's log end offset (the high watermark) as kcat's offset query reports it. */
export async function kcatEndOffset(
  broker: Pick<RunningBroker, 'bootstrap'>,
  topic: string,
  partition: number,
): Promise<number> {
  const output = await kcat(broker, ['-Q', '-t', `${topic}:${partition}:-1`]);
  const escaped = topic.replaceAll('.', '\\.');
  const match = new RegExp(`^${escaped} \\[${partition}\\] offset (-?\\d+)$`, 'm').exec(output);
  if (match === null) throw new Error(`kcat -Q printed no offset for ${topic}:${partition}: ${output}`);
  return Number(match[1]);
}
