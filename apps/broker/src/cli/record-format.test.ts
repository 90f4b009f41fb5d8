import type { ConsumerRecord } from '@weir/protocol';
import { describe, expect, it } from 'vitest';
import { formatRecord } from './record-format';
import { recordJson } from './record-json';

function record(fields: Partial<ConsumerRecord> = {}): ConsumerRecord {
  return {
    topic: 'orders',
    partition: 2,
    offset: 41n,
    key: Buffer.from('k1'),
    value: Buffer.from('hello'),
    headers: [],
    timestampMs: 1_700_000_000_000,
    timestampType: 'create-time',
    ...fields,
  };
}

describe('recordJson', () => {
  it('writes the fields in a fixed order, headers as a list', () => {
    const headers = [
      { key: 'h', value: Buffer.from('1') },
      { key: 'h', value: null },
    ];
    expect(JSON.parse(recordJson(record({ headers })))).toEqual({
      topic: 'orders',
      partition: 2,
      offset: 41,
      timestamp: 1_700_000_000_000,
      key: 'k1',
      value: 'hello',
      headers: [
        { key: 'h', value: '1' },
        { key: 'h', value: null },
      ],
    });
    expect(recordJson(record())).toMatch(/^\{"topic":"orders","partition":2,"offset":41,"timestamp":/);
  });

  it('writes bytes that are not UTF-8 as base64 and flags them', () => {
    const binary = Buffer.from([0xff, 0x00, 0x80]);
    const parsed = JSON.parse(
      recordJson(record({ key: null, value: binary, headers: [{ key: 'b', value: binary }] })),
    );
    expect(parsed).toMatchObject({
      key: null,
      value: binary.toString('base64'),
      valueEncoding: 'base64',
      headers: [{ key: 'b', value: binary.toString('base64'), valueEncoding: 'base64' }],
    });
    expect(parsed).not.toHaveProperty('keyEncoding');
  });

  it('keeps offsets beyond 2^53 exact in the text', () => {
    expect(recordJson(record({ offset: 9_007_199_254_740_993n }))).toContain('"offset":9007199254740993,');
  });
});

describe('formatRecord', () => {
  it('prints the raw value in text, with the key and a tab on request, and null for a null', () => {
    expect(formatRecord(record(), 'text', false).toString()).toBe('hello\n');
    expect(formatRecord(record({ value: null }), 'text', true).toString()).toBe('k1\tnull\n');
  });

  it('prints hex', () => {
    expect(formatRecord(record({ value: Buffer.from([0, 255, 16]) }), 'hex', true).toString()).toBe(
      '6b31\t00ff10\n',
    );
  });
});
