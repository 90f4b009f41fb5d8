import { COMPRESSION_TYPES } from '@weir/protocol';
import { InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';
import { bootstrapServersFrom } from './bootstrap-servers';
import { COMPRESSION_NAMES } from './compression-names';
import { configRecord } from './config-pairs';
import { collectKeyValue, integerAtLeast } from './option-parsers';
import { keySeparatorBytes, lineToMessage } from './produce-line';
import { parseStartPosition } from './start-position';
import { formatTable } from './table';
import { UsageError } from './usage-error';

describe('parseStartPosition', () => {
  it('reads beginning, end, offsets and @timestamps', () => {
    expect(parseStartPosition('beginning')).toEqual({ kind: 'beginning' });
    expect(parseStartPosition('end')).toEqual({ kind: 'end' });
    expect(parseStartPosition('12345678901234567890')).toEqual({
      kind: 'offset',
      offset: 12345678901234567890n,
    });
    expect(parseStartPosition('@1700000000000')).toEqual({
      kind: 'timestamp',
      timestampMs: 1_700_000_000_000,
    });
  });

  it.each(['', 'start', '-1', '1.5', '@', '@-5', '@99999999999999999999'])('refuses %j', (text) => {
    expect(() => parseStartPosition(text)).toThrow(InvalidArgumentError);
  });
});

describe('bootstrapServersFrom', () => {
  it('prefers the flag, then WEIR_BOOTSTRAP_SERVER, then 127.0.0.1:9092', () => {
    const env = { WEIR_BOOTSTRAP_SERVER: 'env-host:9093' };
    expect(bootstrapServersFrom('a:1, b:2', env)).toEqual(['a:1', 'b:2']);
    expect(bootstrapServersFrom(undefined, env)).toEqual(['env-host:9093']);
    expect(bootstrapServersFrom(undefined, {})).toEqual(['127.0.0.1:9092']);
  });

  it('names where a bad entry came from', () => {
    expect(() => bootstrapServersFrom('a:1,nope', {})).toThrow(
      new UsageError('--bootstrap-server: "nope" is not host:port with a port in 1..65535'),
    );
    expect(() => bootstrapServersFrom(undefined, { WEIR_BOOTSTRAP_SERVER: 'h:0' })).toThrow(
      /^WEIR_BOOTSTRAP_SERVER: /,
    );
  });
});

describe('lineToMessage', () => {
  const headers = [{ key: 'h', value: 'v' }];

  it('splits at the first separator, and leaves lines without one keyless', () => {
    const format = { keySeparator: keySeparatorBytes('::'), headers, partition: 1 };
    const message = lineToMessage(Buffer.from('k::v::w'), format);
    expect(message).toEqual({ key: Buffer.from('k'), value: Buffer.from('v::w'), headers, partition: 1 });
    expect(lineToMessage(Buffer.from('no key'), format).key).toBeNull();
  });

  it('reads \\t in the separator as a tab', () => {
    expect(keySeparatorBytes('\\t')).toEqual(Buffer.from('\t'));
  });
});

describe('option parsing', () => {
  it('offers exactly the SDK codecs', () => {
    expect([...COMPRESSION_NAMES].sort()).toEqual([...COMPRESSION_TYPES].sort());
  });

  it('parses whole numbers with a lower bound', () => {
    expect(integerAtLeast(1)('3')).toBe(3);
    for (const text of ['0', '-2', '1.5', 'x', '', '1e3'])
      expect(() => integerAtLeast(1)(text)).toThrow(InvalidArgumentError);
  });

  it('collects key=value pairs, and refuses a key given twice', () => {
    const pairs = collectKeyValue('b=x=y', collectKeyValue('a=1', []));
    expect(pairs).toEqual([
      ['a', '1'],
      ['b', 'x=y'],
    ]);
    expect(() => collectKeyValue('=1', [])).toThrow(InvalidArgumentError);
    expect(configRecord('--config', pairs)).toEqual({ a: '1', b: 'x=y' });
    expect(() => configRecord('--config', [...pairs, ['a', '2']])).toThrow('--config: "a" is given twice');
  });
});

describe('formatTable', () => {
  it('aligns columns without trailing spaces', () => {
    expect(
      formatTable(
        ['NAME', 'N'],
        [
          ['orders', '3'],
          ['x', '12'],
        ],
      ),
    ).toBe('NAME    N\norders  3\nx       12\n');
  });
});
