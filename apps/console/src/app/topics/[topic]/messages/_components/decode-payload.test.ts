import { describe, expect, it } from 'vitest';
import { decodePayload } from './decode-payload';

const payload = (text: string | null, base64 = '') => ({
  base64: base64 || Buffer.from(text ?? '').toString('base64'),
  text,
  sizeBytes: text?.length ?? 0,
  truncated: false,
});

describe('decodePayload in auto mode', () => {
  it('pretty-prints JSON objects and arrays and says it detected JSON', () => {
    expect(decodePayload(payload(' {"user":{"id":42}}'), 'auto')).toEqual({
      text: '{\n  "user": {\n    "id": 42\n  }\n}',
      note: 'JSON detected; pretty-printed.',
    });
    expect(decodePayload(payload('[1,2]'), 'auto').text).toBe('[\n  1,\n  2\n]');
  });

  it('leaves scalars, broken JSON and plain text as text, and binary as hex', () => {
    expect(decodePayload(payload('42'), 'auto')).toEqual({ text: '42' });
    expect(decodePayload(payload('{"user": broken'), 'auto')).toEqual({ text: '{"user": broken' });
    expect(decodePayload(payload('timeout after 3s'), 'auto')).toEqual({ text: 'timeout after 3s' });
    expect(decodePayload(payload(null, Buffer.from([0xff, 0x00]).toString('base64')), 'auto').note).toBe(
      'Not valid UTF-8; shown as hex.',
    );
  });
});
