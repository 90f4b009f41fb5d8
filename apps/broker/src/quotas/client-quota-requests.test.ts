import { ErrorCode } from '@weir/protocol';
import { describe, expect, it } from 'vitest';
import type { ClientQuotaRecord } from '../metadata/metadata-store';
import {
  MATCH_ANY,
  MATCH_DEFAULT,
  MATCH_EXACT,
  parseQuotaAlteration,
  parseQuotaFilter,
  selectQuotas,
} from './client-quota-requests';

const user = (name: string | null) => ({ entityType: 'user', entityName: name });
const client = (name: string | null) => ({ entityType: 'client-id', entityName: name });
const set = (key: string, value: number) => ({ key, value, remove: false });

describe('parseQuotaAlteration', () => {
  it('reads sets and removals, a removed value ignored', () => {
    expect(
      parseQuotaAlteration(
        [user(null), client('c')],
        [set('producer_byte_rate', 1024), { key: 'request_percentage', value: -5, remove: true }],
      ),
    ).toEqual({
      entity: { user: null, clientId: 'c' },
      set: { producer_byte_rate: 1024 },
      remove: ['request_percentage'],
    });
  });

  it.each([
    [[], [set('producer_byte_rate', 1)], 'the quota entity is empty'],
    [[user('u'), user('v')], [set('producer_byte_rate', 1)], 'names "user" twice'],
    [
      [{ entityType: 'ip', entityName: '1.2.3.4' }],
      [set('producer_byte_rate', 1)],
      'unknown quota entity type "ip"',
    ],
    [[user('')], [set('producer_byte_rate', 1)], 'user name is empty'],
    [[user('u')], [set('connection_creation_rate', 1)], 'unknown quota key "connection_creation_rate"'],
    [[user('u')], [set('producer_byte_rate', -1)], '"producer_byte_rate" must be a positive number, got -1'],
    [[user('u')], [set('request_percentage', 0)], 'must be a positive number, got 0'],
    [[user('u')], [set('consumer_byte_rate', 1.5)], 'must be a whole number'],
    [[user('u')], [set('request_percentage', 10), set('request_percentage', 20)], 'given twice'],
  ])('refuses %j %j with INVALID_REQUEST naming the problem', (entity, ops, message) => {
    expect(() => parseQuotaAlteration(entity, ops)).toThrow(
      expect.objectContaining({ code: ErrorCode.INVALID_REQUEST }),
    );
    expect(() => parseQuotaAlteration(entity, ops)).toThrow(message);
  });

  it('accepts a fractional request percentage', () => {
    expect(parseQuotaAlteration([client(null)], [set('request_percentage', 12.5)]).set).toEqual({
      request_percentage: 12.5,
    });
  });
});

describe('parseQuotaFilter', () => {
  const records: ClientQuotaRecord[] = [
    { entity: { user: 'u' }, values: { producer_byte_rate: 1 } },
    { entity: { user: 'u', clientId: 'c' }, values: { producer_byte_rate: 2 } },
    { entity: { user: null }, values: { producer_byte_rate: 3 } },
    { entity: { user: null, clientId: null }, values: { producer_byte_rate: 4 } },
    { entity: { clientId: 'c' }, values: { producer_byte_rate: 5 } },
  ];
  const bounds = (components: Parameters<typeof parseQuotaFilter>[0], strict: boolean) =>
    selectQuotas(records, parseQuotaFilter(components, strict)).map(
      (record) => record.values.producer_byte_rate,
    );

  it('matches exact names, default names and any name, strictly or not', () => {
    expect(bounds([{ entityType: 'user', matchType: MATCH_EXACT, match: 'u' }], false)).toEqual([1, 2]);
    expect(bounds([{ entityType: 'user', matchType: MATCH_EXACT, match: 'u' }], true)).toEqual([1]);
    expect(bounds([{ entityType: 'user', matchType: MATCH_DEFAULT, match: null }], false)).toEqual([3, 4]);
    expect(bounds([{ entityType: 'user', matchType: MATCH_ANY, match: null }], true)).toEqual([1, 3]);
    expect(bounds([{ entityType: 'client-id', matchType: MATCH_ANY, match: null }], false)).toEqual([
      2, 4, 5,
    ]);
    expect(bounds([], false)).toEqual([1, 2, 3, 4, 5]);
    expect(bounds([], true)).toEqual([]);
    expect(
      bounds(
        [
          { entityType: 'user', matchType: MATCH_ANY, match: null },
          { entityType: 'client-id', matchType: MATCH_EXACT, match: 'c' },
        ],
        true,
      ),
    ).toEqual([2]);
  });

  it.each([
    [[{ entityType: 'ip', matchType: MATCH_ANY, match: null }], 'unknown quota entity type "ip"'],
    [[{ entityType: 'user', matchType: MATCH_EXACT, match: null }], 'needs a name'],
    [[{ entityType: 'user', matchType: MATCH_DEFAULT, match: 'u' }], 'takes no name'],
    [[{ entityType: 'user', matchType: 7, match: null }], 'unknown match type 7'],
    [
      [
        { entityType: 'user', matchType: MATCH_ANY, match: null },
        { entityType: 'user', matchType: MATCH_ANY, match: null },
      ],
      'twice',
    ],
  ])('refuses %j with INVALID_REQUEST', (components, message) => {
    expect(() => parseQuotaFilter(components, false)).toThrow(message);
    expect(() => parseQuotaFilter(components, false)).toThrow(
      expect.objectContaining({ code: ErrorCode.INVALID_REQUEST }),
    );
  });
});
