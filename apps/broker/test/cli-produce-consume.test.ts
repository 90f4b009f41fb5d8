import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { partitionForKey } from '@weir/protocol';
import { type RunningBroker, startBroker } from '@weir/test-broker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectExitCode, weir } from './cli-runner';

interface JsonRecord {
  topic: string;
  partition: number;
  offset: number;
  timestamp: number;
  key: string | null;
  value: string | null;
  valueEncoding?: string;
  headers: { key: string; value: string | null }[];
}

const PARTITIONS = 3;

function parseLines(stdout: string): JsonRecord[] {
  return stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as JsonRecord);
}

/** `weir produce`, `weir consume` and `weir offsets` against a real broker, through the real binary. */
describe('weir produce, consume and offsets', () => {
  let broker: RunningBroker;
  let dir = '';
  const cli = (args: string[], input?: string | Buffer) =>
    weir(['-b', broker.bootstrap, ...args], input === undefined ? {} : { input });

  beforeAll(async () => {
    broker = await startBroker({ topics: { autoCreateEnable: false } });
    dir = await mkdtemp(join(tmpdir(), 'weir-cli-data-'));
  });
  afterAll(async () => {
    await broker?.dispose();
    await rm(dir, { recursive: true, force: true });
  });

  it('produces a file of 1,000 keyed lines with headers and gzip, and consumes them back exactly', async () => {
    expectExitCode(await cli(['topic', 'create', 'lines', '--partitions', String(PARTITIONS)]), 0);
    const lines = Array.from({ length: 1000 }, (_, i) => ({
      key: `key-${i % 37}`,
      value: `value ${i} ✓ = ${'x'.repeat(i % 50)}`,
    }));
    const file = join(dir, 'lines.txt');
    await writeFile(file, lines.map((line) => `${line.key}|${line.value}\n`).join(''));

    const produced = await cli([
      'produce',
      'lines',
      '--file',
      file,
      '--key-separator',
      '|',
      '--header',
      'source=cli-test',
      '--header',
      'note=a=b',
      '--compression',
      'gzip',
    ]);
    expect(produced.code).toBe(0);
    expect(produced.stdout).toBe('');
    expect(produced.stderr).toMatch(/^Produced 1000 records \(.* of input\) to "lines" in \d+\.\d\d s\.\n$/);
    // stderr is a pipe here: no progress line, so no carriage returns or escape codes.
    expect(produced.stderr).not.toContain('\r');
    expect(produced.stderr).not.toContain('\u001b');

    const consumed = await cli([
      'consume',
      'lines',
      '--from',
      'beginning',
      '--exit-at-end',
      '--format',
      'json',
    ]);
    expect(consumed.code).toBe(0);
    expect(consumed.stderr).toBe('Consumed 1000 records.\n');
    const records = parseLines(consumed.stdout);
    expect(records).toHaveLength(1000);

    // Each partition holds its keys' lines in input order, at offsets 0, 1, 2, …
    const headers = [
      { key: 'source', value: 'cli-test' },
      { key: 'note', value: 'a=b' },
    ];
    for (let partition = 0; partition < PARTITIONS; partition++) {
      const expected = lines
        .filter((line) => partitionForKey(Buffer.from(line.key), PARTITIONS) === partition)
        .map((line, offset) => ({
          topic: 'lines',
          partition,
          offset,
          key: line.key,
          value: line.value,
          headers,
        }));
      const actual = records
        .filter((record) => record.partition === partition)
        .map(({ timestamp: _timestamp, ...rest }) => rest);
      expect(actual).toEqual(expected);
    }
    for (const record of records) expect(Number.isSafeInteger(record.timestamp)).toBe(true);
  }, 60_000);

  it('starts at a timestamp or an offset, and stops after --max-messages', async () => {
    expectExitCode(await cli(['topic', 'create', 'times', '--partitions', '1']), 0);
    expectExitCode(await cli(['produce', 'times'], 'a0\na1\na2\n'), 0);
    // Records take their create time when sent; a pause makes every later record strictly newer.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const between = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expectExitCode(await cli(['produce', 'times'], 'b0\nb1\n'), 0);

    const fromTime = await cli(['consume', 'times', '--from', `@${between}`, '--exit-at-end']);
    expect(fromTime).toMatchObject({ code: 0, stdout: 'b0\nb1\n' });

    const fromOffset = await cli(['consume', 'times', '--from', '2', '--exit-at-end']);
    expect(fromOffset).toMatchObject({ code: 0, stdout: 'a2\nb0\nb1\n' });

    // No --exit-at-end: --max-messages alone ends it.
    const limited = await cli([
      'consume',
      'times',
      '--from',
      'beginning',
      '--max-messages',
      '2',
      '--print-key',
    ]);
    expect(limited).toMatchObject({
      code: 0,
      stdout: 'null\ta0\nnull\ta1\n',
      stderr: 'Consumed 2 records.\n',
    });

    const pastEnd = await cli(['consume', 'times', '--from', '99', '--exit-at-end']);
    expect(pastEnd.code).toBe(1);
    expect(pastEnd.stderr).toMatch(/^error: OFFSET_OUT_OF_RANGE: .*offset 99/m);

    const offsets = await cli(['offsets', 'times', '--timestamp', String(between)]);
    expect(offsets).toMatchObject({ code: 0, stderr: '' });
    expect(offsets.stdout).toBe(
      `PARTITION  EARLIEST  LATEST  AT ${between}\n0          0         5       3\n`,
    );
  }, 60_000);

  it('prints values as hex, and non-UTF-8 bytes as base64 in JSON', async () => {
    expectExitCode(await cli(['topic', 'create', 'bytes', '--partitions', '1']), 0);
    const binary = Buffer.from([0xff, 0xfe, 0x00, 0x41]);
    expect(
      (await cli(['produce', 'bytes', '--partition', '0'], Buffer.concat([binary, Buffer.from('\nok\n')])))
        .code,
    ).toBe(0);

    const hex = await cli(['consume', 'bytes', '--from', 'beginning', '--exit-at-end', '--format', 'hex']);
    expect(hex.stdout).toBe('fffe0041\n6f6b\n');

    const json = parseLines(
      (await cli(['consume', 'bytes', '--from', 'beginning', '--exit-at-end', '--format', 'json'])).stdout,
    );
    expect(json.map(({ key, value, valueEncoding }) => ({ key, value, valueEncoding }))).toEqual([
      { key: null, value: binary.toString('base64'), valueEncoding: 'base64' },
      { key: null, value: 'ok', valueEncoding: undefined },
    ]);

    const text = await cli(['consume', 'bytes', '--from', 'beginning', '--exit-at-end']);
    expect(text.stdoutBytes.subarray(0, 5)).toEqual(Buffer.concat([binary, Buffer.from('\n')]));
  }, 60_000);

  it('stops an idle consumer after --timeout-ms, and ends at once on an empty topic with --exit-at-end', async () => {
    expectExitCode(await cli(['topic', 'create', 'quiet']), 0);
    const idle = await cli(['consume', 'quiet', '--timeout-ms', '300']);
    expect(idle.code).toBe(0);
    expect(idle.stderr).toContain('No record for 300 ms');
    const empty = await cli(['consume', 'quiet', '--from', 'beginning', '--exit-at-end']);
    expect(empty).toMatchObject({ code: 0, stdout: '', stderr: 'Consumed 0 records.\n' });
  }, 30_000);

  it('stops on Ctrl-C, printing the count', async () => {
    expectExitCode(await cli(['topic', 'create', 'live']), 0);
    expectExitCode(await cli(['produce', 'live'], 'r0\nr1\nr2\n'), 0);
    const result = await weir(['-b', broker.bootstrap, 'consume', 'live', '--from', 'beginning'], {
      interruptOnOutput: true,
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^r0\n/);
    expect(result.stderr).toMatch(/^Consumed [1-3] records\.\n$/);
  }, 30_000);

  it('exits 1 with UNKNOWN_TOPIC_OR_PARTITION for a topic or partition that does not exist', async () => {
    for (const args of [
      ['consume', 'no-such-topic', '--from', 'beginning'],
      ['offsets', 'no-such-topic'],
      ['produce', 'no-such-topic'],
    ]) {
      const result = await cli(args, 'x\n');
      expect(result.code, args.join(' ')).toBe(1);
      expect(result.stderr).toMatch(/^error: UNKNOWN_TOPIC_OR_PARTITION: .*no-such-topic/m);
    }
    expectExitCode(await cli(['topic', 'create', 'one']), 0);
    const partition = await cli(['consume', 'one', '--partition', '4']);
    expect(partition.code).toBe(1);
    expect(partition.stderr).toMatch(/UNKNOWN_TOPIC_OR_PARTITION: .*partition 4 does not exist/);
  }, 60_000);

  it('exits 2 naming the flag for bad arguments', async () => {
    const cases: [string[], string][] = [
      [['consume', 't', '--from', 'later'], "option '--from <position>' argument 'later' is invalid"],
      [['consume', 't', '--format', 'xml'], "option '--format <format>' argument 'xml' is invalid"],
      [['consume', 't', '--max-messages', '0'], "option '--max-messages <n>' argument '0' is invalid"],
      [
        ['produce', 't', '--compression', 'brotli'],
        "option '--compression <codec>' argument 'brotli' is invalid",
      ],
      [['produce', 't', '--acks', '2'], "option '--acks <acks>' argument '2' is invalid"],
      [
        ['produce', 't', '--header', 'novalue'],
        "option '--header <key=value>' argument 'novalue' is invalid",
      ],
      [['produce', 't', '--file', join(dir, 'missing.txt')], '--file: cannot read'],
      [['consume', 't', '--frmo', 'beginning'], "unknown option '--frmo'"],
    ];
    for (const [args, message] of cases) {
      const result = await cli(args);
      expect(result.code, args.join(' ')).toBe(2);
      expect(result.stderr).toContain(message);
    }
  }, 90_000);
});
