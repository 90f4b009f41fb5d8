import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  Admin,
  type AuditEventQuery,
  type AuditEventRow,
  ErrorCode,
  InternalAdmin,
  TransactionalProducer,
} from '@weir/protocol';
import { type RunningBroker, startBroker } from '@weir/test-broker';
import { afterEach, describe, expect, it } from 'vitest';
import type { BrokerConfigInput } from '../src/config/broker-config';
import { INTERNAL_PRINCIPAL } from '../src/server/auth/weir-token-mechanism';
import { internalClientAs, securePlaintextConfig } from './acl-fixtures';
import { clientSession, weirFailure } from './internal-fixtures';

/** ACLs required: the client listener's User:ANONYMOUS may do nothing, the internal token anything. */
const SECURE: BrokerConfigInput = { ...securePlaintextConfig(), topics: { autoCreateEnable: false } };

/** What a test opened, closed after it. */
const opened: { close(): Promise<void> }[] = [];
/** The test's brokers: a restarted one borrows the first one's data directory, so goes first. */
const brokers: RunningBroker[] = [];

afterEach(async () => {
  await Promise.all(opened.splice(0).map((client) => client.close()));
  for (const broker of brokers.splice(0).reverse()) await broker.dispose();
});

async function start(overrides: BrokerConfigInput, dataDir?: string): Promise<RunningBroker> {
  const broker = await startBroker(overrides, dataDir);
  brokers.push(broker);
  return broker;
}

function internalAdmins(broker: RunningBroker, actAs?: string): { admin: Admin; internal: InternalAdmin } {
  const client = internalClientAs(broker, actAs);
  opened.push(client);
  return { admin: new Admin(client), internal: new InternalAdmin(client) };
}

async function list(broker: RunningBroker, query: Partial<AuditEventQuery> = {}): Promise<AuditEventRow[]> {
  const { internal } = internalAdmins(broker);
  return [...(await internal.listAuditEvents({ limit: 100, ...query })).events];
}

describe('the audit log of a real broker', () => {
  it('records admin actions with principal, client, input and outcome, denied ones too, and keeps them across a restart', async () => {
    const running = await start(SECURE);
    const { admin, internal } = internalAdmins(running);
    const startedMs = Date.now();
    await admin.createTopics([{ name: 'orders', partitions: 2, configs: { 'retention.ms': '3600000' } }]);
    await admin.incrementalAlterConfigs([
      {
        type: 'topic',
        name: 'orders',
        changes: [{ name: 'cleanup.policy', operation: 'set', value: 'compact' }],
      },
    ]);
    await admin.createAcls([
      {
        resourceType: 'TOPIC',
        resourceName: 'orders',
        patternType: 'LITERAL',
        principal: 'User:alice',
        host: '*',
        operation: 'READ',
        permission: 'ALLOW',
      },
    ]);
    // The client listener's anonymous principal has no ACL: denied, and audited as denied.
    const anonymous = clientSession(running);
    opened.push(anonymous.client);
    await weirFailure(anonymous.admin.createTopics([{ name: 'forbidden', partitions: 1 }]));
    // The console acting for a user: the delegated principal is the one recorded.
    const { admin: asAlice } = internalAdmins(running, 'User:alice');
    await weirFailure(asAlice.deleteTopics(['orders']));
    const abort = await weirFailure(internal.abortTransaction('payments-1', 'stuck since the deploy'));
    expect(abort.code).toBe(ErrorCode.TRANSACTIONAL_ID_NOT_FOUND);
    await admin.resetOffsets('billing', 'earliest', { topics: ['orders'] });

    const events = await list(running);
    expect(
      events.map((event) => [event.action, event.resourceName, event.principal, event.outcomeName]),
    ).toEqual([
      ['commit-offsets', 'billing', INTERNAL_PRINCIPAL, 'NONE'],
      ['abort-transaction', 'payments-1', INTERNAL_PRINCIPAL, 'TRANSACTIONAL_ID_NOT_FOUND'],
      ['delete-topic', 'orders', 'User:alice', 'TOPIC_AUTHORIZATION_FAILED'],
      ['create-topic', 'forbidden', 'User:ANONYMOUS', 'TOPIC_AUTHORIZATION_FAILED'],
      ['create-acl', 'orders', INTERNAL_PRINCIPAL, 'NONE'],
      ['alter-configs', 'orders', INTERNAL_PRINCIPAL, 'NONE'],
      ['create-topic', 'orders', INTERNAL_PRINCIPAL, 'NONE'],
    ]);
    const byAction = (action: string) => events.find((event) => event.action === action)!;
    expect(
      events.find((event) => event.resourceName === 'orders' && event.action === 'create-topic'),
    ).toMatchObject({
      clientId: 'acl-internal',
      clientHost: '127.0.0.1',
      listener: 'internal',
      resourceType: 'topic',
      outcomeCode: ErrorCode.NONE,
      input: { partitions: 2, configs: { 'retention.ms': '3600000' } },
    });
    expect(events.find((event) => event.resourceName === 'forbidden')).toMatchObject({
      clientId: 'data-test',
      listener: 'client',
    });
    expect(byAction('alter-configs').input).toEqual({
      changes: [{ name: 'cleanup.policy', operation: 'set', value: 'compact' }],
    });
    expect(byAction('create-acl').input).toMatchObject({ principal: 'User:alice', operation: 'READ' });
    expect(byAction('abort-transaction').input).toEqual({ reason: 'stuck since the deploy' });
    expect(byAction('commit-offsets').input).toEqual({ offsets: { 'orders-0': '0', 'orders-1': '0' } });
    for (const event of events) {
      expect(event.atMs).toBeGreaterThanOrEqual(startedMs);
      expect(event.brokerId).toBe(0);
    }

    // Filters: principal and resource name by part, action exactly, outcome, time.
    const actions = (rows: AuditEventRow[]) => rows.map((event) => event.action);
    expect(actions(await list(running, { principal: 'alice' }))).toEqual(['delete-topic']);
    expect(actions(await list(running, { action: 'create-topic', outcome: 'ok' }))).toEqual(['create-topic']);
    expect(actions(await list(running, { outcome: 'failed' }))).toEqual([
      'abort-transaction',
      'delete-topic',
      'create-topic',
    ]);
    expect((await list(running, { resourceName: 'ORD' })).map((event) => event.resourceName)).toEqual([
      'orders',
      'orders',
      'orders',
      'orders',
    ]);
    expect(await list(running, { untilMs: startedMs - 1 })).toEqual([]);
    expect(await list(running, { sinceMs: byAction('commit-offsets').atMs })).toContainEqual(
      byAction('commit-offsets'),
    );

    // Paging: three, then the rest after the cursor, nothing twice.
    const first = await internal.listAuditEvents({ limit: 3 });
    expect(first.events).toEqual(events.slice(0, 3));
    const second = await internal.listAuditEvents({ limit: 10, beforeId: first.nextBeforeId! });
    expect(second.events).toEqual(events.slice(3));
    expect(second.nextBeforeId).toBeUndefined();

    // Bad filters are refused naming the field, and the broker keeps serving.
    const badLimit = await weirFailure(internal.listAuditEvents({ limit: 0 }));
    expect([badLimit.code, badLimit.message]).toEqual([
      ErrorCode.INVALID_REQUEST,
      expect.stringContaining('limit'),
    ]);

    // The anonymous principal may not read the log.
    const denied = await weirFailure(
      internalAdmins(running, 'User:nobody').internal.listAuditEvents({ limit: 1 }),
    );
    expect(denied.code).toBe(ErrorCode.CLUSTER_AUTHORIZATION_FAILED);

    await Promise.all(opened.splice(0).map((client) => client.close()));
    await running.stop();
    const restarted = await start(SECURE, running.dataDir);
    expect(await list(restarted)).toEqual(events);
    // New events go after the kept ones, ids still growing.
    await internalAdmins(restarted).admin.deleteTopics(['orders']);
    const after = await list(restarted);
    expect(after.map((event) => event.action).slice(0, 2)).toEqual(['delete-topic', 'commit-offsets']);
    expect(after[0]!.id > after[1]!.id).toBe(true);
  });

  it('keeps at most audit.maxEvents, the newest, in memory and on disk, across a restart', async () => {
    const bounded: BrokerConfigInput = { topics: { autoCreateEnable: false }, audit: { maxEvents: 10 } };
    const running = await start(bounded);
    const { admin } = internalAdmins(running);
    const names = Array.from({ length: 25 }, (_, index) => `bounded-${String(index).padStart(2, '0')}`);
    for (const name of names) await admin.createTopics([{ name, partitions: 1 }]);
    const newest = names.slice(-10).reverse();
    expect((await list(running)).map((event) => event.resourceName)).toEqual(newest);
    // The file is rewritten with the kept events once it would pass twice the bound.
    const lines = (await readFile(join(running.dataDir, 'audit-log.jsonl'), 'utf8')).split('\n');
    expect(lines.filter((line) => line !== '').length).toBeLessThanOrEqual(20);
    await Promise.all(opened.splice(0).map((client) => client.close()));
    await running.stop();
    const restarted = await start(bounded, running.dataDir);
    expect((await list(restarted)).map((event) => event.resourceName)).toEqual(newest);
  });

  it('records an operator abort of a hanging transaction with its reason', async () => {
    const running = await start({ topics: { autoCreateEnable: false } });
    const { admin, internal } = internalAdmins(running);
    await admin.createTopics([{ name: 'payments', partitions: 1 }]);
    const data = clientSession(running);
    opened.push(data.client);
    const producer = new TransactionalProducer(data.client, { transactionalId: 'payments-writer' });
    await producer.initTransactions();
    producer.beginTransaction();
    await producer.send({ topic: 'payments', messages: [{ value: 'half-done' }] });
    // Never committed: the transaction hangs until the operator aborts it.
    await internal.abortTransaction('payments-writer', 'producer host died; LSO stuck');
    const [abort] = await list(running, { action: 'abort-transaction' });
    expect(abort).toMatchObject({
      resourceType: 'transactional-id',
      resourceName: 'payments-writer',
      principal: INTERNAL_PRINCIPAL,
      outcomeName: 'NONE',
      input: { reason: 'producer host died; LSO stuck' },
    });
    await producer.close().catch(() => undefined);
  });
});
