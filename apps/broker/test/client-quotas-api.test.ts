import { AlterClientQuotas, ApiVersions, DescribeClientQuotas, ErrorCode } from '@weir/protocol';
import { type RunningBroker, startBroker } from '@weir/test-broker';
import { afterEach, describe, expect, it } from 'vitest';
import { internalClientAs } from './acl-fixtures';
import { RawClient } from './raw-client';

const EXACT = 0;
const DEFAULT = 1;
const ANY = 2;

type Entity = { entityType: string; entityName: string | null }[];
const user = (name: string | null) => ({ entityType: 'user', entityName: name });
const client = (name: string | null) => ({ entityType: 'client-id', entityName: name });
const set = (key: string, value: number) => ({ key, value, remove: false });
const remove = (key: string) => ({ key, value: 0, remove: true });

/**
 * DescribeClientQuotas and AlterClientQuotas over the wire (kafkajs implements neither): what is
 * stored, how filters match, what is refused and why, and that quotas survive a restart.
 * Authorization is in the ACL matrix (acl-matrix-rows.ts).
 */
describe('client quota APIs', () => {
  let running: RunningBroker | undefined;
  let owner: RunningBroker | undefined;
  const clients: RawClient[] = [];

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((raw) => raw.close()));
    await running?.stop();
    await owner?.dispose();
    running = undefined;
    owner = undefined;
  });

  async function connect(bootstrap: string): Promise<RawClient> {
    const raw = await RawClient.connect(bootstrap);
    clients.push(raw);
    return raw;
  }

  function alter(
    raw: RawClient,
    entries: { entity: Entity; ops: ReturnType<typeof set>[] }[],
    validateOnly = false,
    version = 0,
  ) {
    return raw.request(AlterClientQuotas, version, { entries, validateOnly });
  }

  async function describeAll(raw: RawClient, version = 0) {
    const answer = await raw.request(DescribeClientQuotas, version, { components: [], strict: false });
    expect(answer.errorCode).toBe(ErrorCode.NONE);
    return answer.entries;
  }

  it('advertises v0 on the client listener (it advertises no flexible version)', async () => {
    owner = running = await startBroker();
    const raw = await connect(running.bootstrap);
    const versions = await raw.request(ApiVersions, 2, {
      clientSoftwareName: 'test',
      clientSoftwareVersion: '1',
    });
    const advertised = (key: number) => versions.apiKeys.find((api) => api.apiKey === key);
    expect(advertised(48)).toMatchObject({ minVersion: 0, maxVersion: 0 });
    expect(advertised(49)).toMatchObject({ minVersion: 0, maxVersion: 0 });
  });

  it('sets, describes by exact, default and any match, removes, and keeps quotas across a restart', async () => {
    owner = running = await startBroker();
    let raw = await connect(running.bootstrap);
    const altered = await alter(raw, [
      { entity: [user('alice'), client(null)], ops: [set('producer_byte_rate', 1_048_576)] },
      { entity: [user('alice')], ops: [set('consumer_byte_rate', 2_097_152), set('request_percentage', 50)] },
      { entity: [client(null)], ops: [set('request_percentage', 200)] },
      { entity: [client('loader')], ops: [set('producer_byte_rate', 4096)] },
    ]);
    expect(altered.entries.map((entry) => [entry.errorCode, entry.entity])).toEqual([
      [ErrorCode.NONE, [user('alice'), client(null)]],
      [ErrorCode.NONE, [user('alice')]],
      [ErrorCode.NONE, [client(null)]],
      [ErrorCode.NONE, [client('loader')]],
    ]);
    const aliceExact = await raw.request(DescribeClientQuotas, 0, {
      components: [{ entityType: 'user', matchType: EXACT, match: 'alice' }],
      strict: true,
    });
    expect(aliceExact.entries).toEqual([
      {
        entity: [user('alice')],
        values: [
          { key: 'consumer_byte_rate', value: 2_097_152 },
          { key: 'request_percentage', value: 50 },
        ],
      },
    ]);
    const defaultClients = await raw.request(DescribeClientQuotas, 0, {
      components: [{ entityType: 'client-id', matchType: DEFAULT, match: null }],
      strict: false,
    });
    expect(defaultClients.entries?.map((entry) => entry.entity)).toEqual([
      [user('alice'), client(null)],
      [client(null)],
    ]);
    const anyClient = await raw.request(DescribeClientQuotas, 0, {
      components: [{ entityType: 'client-id', matchType: ANY, match: null }],
      strict: true,
    });
    expect(anyClient.entries?.map((entry) => entry.entity)).toEqual([[client(null)], [client('loader')]]);

    await alter(raw, [
      { entity: [user('alice')], ops: [remove('request_percentage')] },
      { entity: [client('loader')], ops: [remove('producer_byte_rate')] },
    ]);
    await raw.close();
    await running.stop();
    running = await startBroker({}, owner.dataDir);
    raw = await connect(running.bootstrap);
    expect(await describeAll(raw)).toEqual([
      { entity: [user('alice'), client(null)], values: [{ key: 'producer_byte_rate', value: 1_048_576 }] },
      { entity: [user('alice')], values: [{ key: 'consumer_byte_rate', value: 2_097_152 }] },
      { entity: [client(null)], values: [{ key: 'request_percentage', value: 200 }] },
    ]);
    // The internal listener serves the flexible v1 too, which the SDK picks there.
    const internal = internalClientAs(running);
    try {
      const described = await internal.send('any', DescribeClientQuotas, {
        components: [{ entityType: 'user', matchType: EXACT, match: 'alice' }],
        strict: false,
      });
      expect(described.entries?.map((entry) => entry.entity)).toEqual([
        [user('alice'), client(null)],
        [user('alice')],
      ]);
    } finally {
      await internal.close();
    }
  });

  it('refuses bad entries with INVALID_REQUEST naming what is wrong, writes the good ones, and validate_only writes nothing', async () => {
    owner = running = await startBroker();
    const raw = await connect(running.bootstrap);
    const answer = await alter(raw, [
      { entity: [client('ok')], ops: [set('producer_byte_rate', 1024)] },
      { entity: [client('bad-key')], ops: [set('producer_bytes_rate', 1024)] },
      { entity: [client('negative')], ops: [set('consumer_byte_rate', -5)] },
      { entity: [client('fraction')], ops: [set('consumer_byte_rate', 10.5)] },
      { entity: [{ entityType: 'ip', entityName: '10.0.0.1' }], ops: [set('request_percentage', 10)] },
      { entity: [], ops: [set('request_percentage', 10)] },
      { entity: [client('twice')], ops: [set('request_percentage', 10)] },
      { entity: [client('twice')], ops: [set('request_percentage', 20)] },
    ]);
    const errors = answer.entries.map((entry) => [entry.errorCode, entry.errorMessage]);
    expect(errors[0]).toEqual([ErrorCode.NONE, null]);
    for (const [code] of errors.slice(1)) expect(code).toBe(ErrorCode.INVALID_REQUEST);
    expect(errors[1]![1]).toContain('unknown quota key "producer_bytes_rate"');
    expect(errors[2]![1]).toContain('"consumer_byte_rate" must be a positive number, got -5');
    expect(errors[3]![1]).toContain('must be a whole number');
    expect(errors[4]![1]).toContain('unknown quota entity type "ip"');
    expect(errors[5]![1]).toContain('the quota entity is empty');
    expect(errors[6]![1]).toContain('altered by two entries');
    expect(await describeAll(raw)).toEqual([
      { entity: [client('ok')], values: [{ key: 'producer_byte_rate', value: 1024 }] },
    ]);

    const validated = await alter(
      raw,
      [{ entity: [user(null)], ops: [set('request_percentage', 10)] }],
      true,
    );
    expect(validated.entries[0]!.errorCode).toBe(ErrorCode.NONE);
    const refusedValidation = await alter(
      raw,
      [{ entity: [user(null)], ops: [set('request_percentage', 0)] }],
      true,
    );
    expect(refusedValidation.entries[0]!.errorCode).toBe(ErrorCode.INVALID_REQUEST);
    expect(await describeAll(raw)).toHaveLength(1);

    const badFilter = await raw.request(DescribeClientQuotas, 0, {
      components: [{ entityType: 'user', matchType: EXACT, match: null }],
      strict: false,
    });
    expect(badFilter).toMatchObject({ errorCode: ErrorCode.INVALID_REQUEST, entries: null });
    expect(badFilter.errorMessage).toContain('an exact match on "user" needs a name');
  });
});
