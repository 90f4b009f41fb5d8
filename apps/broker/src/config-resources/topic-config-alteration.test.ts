import { ErrorCode, WeirError } from '@weir/protocol';
import { describe, expect, it } from 'vitest';
import { brokerConfigSchema } from '../config/broker-config';
import type { ConfigOperation } from './config-types';
import { alteredTopicOverrides } from './topic-config-alteration';

const broker = brokerConfigSchema.parse({ log: { retentionMs: 1000 } });

function change(name: string, value: string | null, operation: ConfigOperation | null = 'set') {
  return { name, value, operation };
}

function codeOf(run: () => unknown): number | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    return error instanceof WeirError ? error.code : -1;
  }
}

describe('alteredTopicOverrides', () => {
  const current = { 'retention.ms': '5000', 'segment.ms': '6000' };

  it('replaces the whole set for AlterConfigs', () => {
    expect(
      alteredTopicOverrides(current, [change('segment.ms', '7000')], { incremental: false, broker }),
    ).toEqual({
      'segment.ms': '7000',
    });
    expect(alteredTopicOverrides(current, [], { incremental: false, broker })).toEqual({});
  });

  it('edits key by key for IncrementalAlterConfigs', () => {
    const next = alteredTopicOverrides(
      current,
      [change('segment.ms', null, 'delete'), change('flush.ms', '50')],
      { incremental: true, broker },
    );
    expect(next).toEqual({ 'retention.ms': '5000', 'flush.ms': '50' });
  });

  it('appends to and subtracts from list configs, starting from the default', () => {
    expect(
      alteredTopicOverrides({}, [change('cleanup.policy', 'delete', 'append')], {
        incremental: true,
        broker,
      }),
    ).toEqual({ 'cleanup.policy': 'delete' });
    expect(
      codeOf(() =>
        alteredTopicOverrides({}, [change('cleanup.policy', 'delete', 'subtract')], {
          incremental: true,
          broker,
        }),
      ),
    ).toBe(ErrorCode.INVALID_CONFIG);
  });

  it('refuses APPEND and SUBTRACT on non-list configs, unknown names, operations and duplicates', () => {
    const incremental = { incremental: true, broker };
    expect(
      codeOf(() => alteredTopicOverrides({}, [change('retention.ms', '1', 'append')], incremental)),
    ).toBe(ErrorCode.INVALID_CONFIG);
    expect(
      codeOf(() => alteredTopicOverrides({}, [change('retention.msec', null, 'delete')], incremental)),
    ).toBe(ErrorCode.INVALID_CONFIG);
    expect(codeOf(() => alteredTopicOverrides({}, [change('retention.ms', '1', null)], incremental))).toBe(
      ErrorCode.INVALID_REQUEST,
    );
    expect(
      codeOf(() =>
        alteredTopicOverrides({}, [change('retention.ms', '1'), change('retention.ms', '2')], incremental),
      ),
    ).toBe(ErrorCode.INVALID_REQUEST);
    expect(
      codeOf(() =>
        alteredTopicOverrides({}, [change('retention.ms', '1', 'delete')], { incremental: false, broker }),
      ),
    ).toBe(ErrorCode.INVALID_REQUEST);
  });

  it('names the config and the reason for a bad value', () => {
    expect(() =>
      alteredTopicOverrides({}, [change('retention.ms', null)], { incremental: true, broker }),
    ).toThrow('Null value not supported for topic configs: retention.ms');
    expect(() =>
      alteredTopicOverrides({}, [change('segment.bytes', '12')], { incremental: true, broker }),
    ).toThrow('Invalid value 12 for configuration segment.bytes: Value must be at least 1024');
    expect(() =>
      alteredTopicOverrides({}, [change('retention.ms', '5', 'append')], { incremental: true, broker }),
    ).toThrow('Config value append is not allowed for config key: retention.ms');
  });
});
