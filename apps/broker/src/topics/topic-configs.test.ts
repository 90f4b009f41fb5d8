import { describe, expect, it } from 'vitest';
import { brokerConfigSchema } from '../config/broker-config';
import { logConfigFor, topicConfigDefinition, topicConfigsProblem } from './topic-configs';

const broker = (topics: Record<string, unknown> = {}) => brokerConfigSchema.parse({ topics });

describe('the replication configs of a topic’s log', () => {
  it('resolves min.insync.replicas and unclean.leader.election.enable from the broker defaults', () => {
    expect(logConfigFor(broker(), {})).toMatchObject({
      minInsyncReplicas: 1,
      uncleanLeaderElectionEnable: false,
    });
    expect(
      logConfigFor(broker({ minInsyncReplicas: 2, uncleanLeaderElectionEnable: true }), {}),
    ).toMatchObject({ minInsyncReplicas: 2, uncleanLeaderElectionEnable: true });
  });

  it('lets the topic’s overrides win over the broker defaults', () => {
    const log = logConfigFor(broker({ minInsyncReplicas: 2, uncleanLeaderElectionEnable: true }), {
      'min.insync.replicas': '3',
      'unclean.leader.election.enable': 'false',
    });
    expect(log).toMatchObject({ minInsyncReplicas: 3, uncleanLeaderElectionEnable: false });
  });

  it('describes the broker defaults as the topic defaults', () => {
    const configured = broker({ minInsyncReplicas: 2, uncleanLeaderElectionEnable: true });
    expect(topicConfigDefinition('min.insync.replicas')?.defaultValue(configured)).toBe('2');
    expect(topicConfigDefinition('unclean.leader.election.enable')?.defaultValue(configured)).toBe('true');
  });

  it('refuses values that are not a count of replicas or a boolean, naming the config', () => {
    expect(topicConfigsProblem({ 'min.insync.replicas': '0' })).toBe(
      'Invalid value 0 for configuration min.insync.replicas: Value must be at least 1',
    );
    expect(topicConfigsProblem({ 'min.insync.replicas': 'two' })).toBe(
      'Invalid value two for configuration min.insync.replicas: Not a number of type INT',
    );
    expect(topicConfigsProblem({ 'unclean.leader.election.enable': 'yes' })).toBe(
      'Invalid value yes for configuration unclean.leader.election.enable: Expected value to be either true or false',
    );
  });

  it("words problems as Kafka's ConfigException does", () => {
    expect(topicConfigsProblem({ 'retention.ms': 'abc' })).toBe(
      'Invalid value abc for configuration retention.ms: Not a number of type LONG',
    );
    expect(topicConfigsProblem({ 'segment.bytes': '12' })).toBe(
      'Invalid value 12 for configuration segment.bytes: Value must be at least 1024',
    );
    expect(topicConfigsProblem({ 'segment.bytes': '2147483648' })).toBe(
      'Invalid value 2147483648 for configuration segment.bytes: Not a number of type INT',
    );
    expect(topicConfigsProblem({ 'message.timestamp.type': 'Now' })).toBe(
      'Invalid value Now for configuration message.timestamp.type: String must be one of: CreateTime, LogAppendTime',
    );
    expect(topicConfigsProblem({ 'retention.msec': '1' })).toBe('Unknown topic config name: retention.msec');
    expect(topicConfigsProblem({ 'retention.ms': null })).toBe(
      'Null value not supported for topic configs: retention.ms',
    );
  });
});

describe('the cleanup configs of a topic’s log', () => {
  const withLog = (log: Record<string, unknown>) => brokerConfigSchema.parse({ log });

  it('defaults to the delete policy and Kafka’s cleaner settings', () => {
    expect(logConfigFor(broker(), {})).toMatchObject({
      compact: false,
      deleteByRetention: true,
      minCleanableDirtyRatio: 0.5,
      minCompactionLagMs: 0,
      maxCompactionLagMs: Number.POSITIVE_INFINITY,
      deleteRetentionMs: 86_400_000,
    });
    const defaults = broker();
    expect(topicConfigDefinition('cleanup.policy')?.defaultValue(defaults)).toBe('delete');
    expect(topicConfigDefinition('max.compaction.lag.ms')?.defaultValue(defaults)).toBe(
      '9223372036854775807',
    );
    expect(topicConfigDefinition('min.cleanable.dirty.ratio')?.defaultValue(defaults)).toBe('0.5');
  });

  it('takes the topic defaults from log.cleanup.policy and log.cleaner', () => {
    const configured = withLog({
      cleanupPolicy: 'compact',
      cleaner: { minCleanableRatio: 0.1, deleteRetentionMs: 5, minCompactionLagMs: 6, maxCompactionLagMs: 7 },
    });
    expect(logConfigFor(configured, {})).toMatchObject({
      compact: true,
      deleteByRetention: false,
      minCleanableDirtyRatio: 0.1,
      deleteRetentionMs: 5,
      minCompactionLagMs: 6,
      maxCompactionLagMs: 7,
    });
    expect(topicConfigDefinition('cleanup.policy')?.defaultValue(configured)).toBe('compact');
    expect(topicConfigDefinition('max.compaction.lag.ms')?.defaultValue(configured)).toBe('7');
  });

  it('reads cleanup.policy as a list in either order, with spaces around the commas', () => {
    expect(logConfigFor(broker(), { 'cleanup.policy': 'compact' })).toMatchObject({
      compact: true,
      deleteByRetention: false,
    });
    for (const both of ['compact,delete', 'delete,compact', ' delete , compact ']) {
      expect(topicConfigsProblem({ 'cleanup.policy': both })).toBeUndefined();
      expect(logConfigFor(broker(), { 'cleanup.policy': both })).toMatchObject({
        compact: true,
        deleteByRetention: true,
      });
    }
  });

  it('applies the four cleaner overrides, Kafka’s Long.MAX as no limit', () => {
    const overrides = {
      'min.cleanable.dirty.ratio': '0.75',
      'min.compaction.lag.ms': '1000',
      'max.compaction.lag.ms': '9223372036854775807',
      'delete.retention.ms': '2000',
    };
    expect(topicConfigsProblem(overrides)).toBeUndefined();
    expect(logConfigFor(broker(), overrides)).toMatchObject({
      minCleanableDirtyRatio: 0.75,
      minCompactionLagMs: 1000,
      maxCompactionLagMs: Number.POSITIVE_INFINITY,
      deleteRetentionMs: 2000,
    });
    expect(logConfigFor(broker(), { 'max.compaction.lag.ms': '60000' }).maxCompactionLagMs).toBe(60_000);
  });

  it('refuses a bad policy, ratio or lag, naming the config and the bad entry', () => {
    expect(topicConfigsProblem({ 'cleanup.policy': 'compact,foo' })).toBe(
      'Invalid value compact,foo for configuration cleanup.policy: String must be one of: delete, compact',
    );
    expect(topicConfigsProblem({ 'cleanup.policy': '' })).toMatch(/cleanup\.policy: At least one policy/);
    expect(topicConfigsProblem({ 'cleanup.policy': ' , ' })).toMatch(/cleanup\.policy: At least one policy/);
    expect(topicConfigsProblem({ 'min.cleanable.dirty.ratio': '1.5' })).toBe(
      'Invalid value 1.5 for configuration min.cleanable.dirty.ratio: Value must be no more than 1',
    );
    expect(topicConfigsProblem({ 'min.cleanable.dirty.ratio': '-0.1' })).toBe(
      'Invalid value -0.1 for configuration min.cleanable.dirty.ratio: Value must be at least 0',
    );
    expect(topicConfigsProblem({ 'min.cleanable.dirty.ratio': 'half' })).toBe(
      'Invalid value half for configuration min.cleanable.dirty.ratio: Not a number of type DOUBLE',
    );
    expect(topicConfigsProblem({ 'min.compaction.lag.ms': '-1' })).toMatch(/ min\.compaction\.lag\.ms: /);
    expect(topicConfigsProblem({ 'max.compaction.lag.ms': '0' })).toMatch(/ max\.compaction\.lag\.ms: /);
    expect(topicConfigsProblem({ 'max.compaction.lag.ms': '9223372036854775808' })).toBe(
      'Invalid value 9223372036854775808 for configuration max.compaction.lag.ms: Not a number of type LONG',
    );
    expect(topicConfigsProblem({ 'delete.retention.ms': '-5' })).toMatch(/ delete\.retention\.ms: /);
  });

  it('refuses a minimum compaction lag above the maximum when both are set', () => {
    expect(topicConfigsProblem({ 'min.compaction.lag.ms': '2000', 'max.compaction.lag.ms': '1000' })).toMatch(
      /min\.compaction\.lag\.ms \(2000\) > max\.compaction\.lag\.ms \(1000\)/,
    );
    expect(
      topicConfigsProblem({ 'min.compaction.lag.ms': '1000', 'max.compaction.lag.ms': '1000' }),
    ).toBeUndefined();
  });
});

describe('the timestamp limits of a topic’s log', () => {
  const withLog = (log: Record<string, unknown>) => brokerConfigSchema.parse({ log });
  const names = [
    'message.timestamp.before.max.ms',
    'message.timestamp.after.max.ms',
    'message.timestamp.difference.max.ms',
  ];

  it('default to Kafka 3.x’s Long.MAX, no limit', () => {
    expect(logConfigFor(broker(), {})).toMatchObject({
      timestampBeforeMaxMs: Number.POSITIVE_INFINITY,
      timestampAfterMaxMs: Number.POSITIVE_INFINITY,
      timestampDifferenceMaxMs: Number.POSITIVE_INFINITY,
    });
    for (const name of names)
      expect(topicConfigDefinition(name)?.defaultValue(broker())).toBe('9223372036854775807');
  });

  it('take their defaults from the broker’s log settings and their overrides from the topic', () => {
    const configured = withLog({
      timestampBeforeMaxMs: 1000,
      timestampAfterMaxMs: 2000,
      timestampDifferenceMaxMs: 3000,
    });
    expect(logConfigFor(configured, {})).toMatchObject({
      timestampBeforeMaxMs: 1000,
      timestampAfterMaxMs: 2000,
      timestampDifferenceMaxMs: 3000,
    });
    expect(topicConfigDefinition('message.timestamp.after.max.ms')?.defaultValue(configured)).toBe('2000');
    const overrides = {
      'message.timestamp.before.max.ms': '9223372036854775807',
      'message.timestamp.after.max.ms': '60000',
      'message.timestamp.difference.max.ms': '0',
    };
    expect(topicConfigsProblem(overrides)).toBeUndefined();
    expect(logConfigFor(configured, overrides)).toMatchObject({
      timestampBeforeMaxMs: Number.POSITIVE_INFINITY,
      timestampAfterMaxMs: 60_000,
      timestampDifferenceMaxMs: 0,
    });
  });

  it('refuse a negative or non-numeric limit, naming the config', () => {
    for (const name of names) {
      expect(topicConfigsProblem({ [name]: '-1' })).toContain(
        `configuration ${name}: Value must be at least 0`,
      );
      expect(topicConfigsProblem({ [name]: 'soon' })).toContain(`configuration ${name}: Not a number`);
      expect(topicConfigsProblem({ [name]: '9223372036854775808' })).toContain(
        `configuration ${name}: Not a number`,
      );
    }
  });
});

describe('flush.messages', () => {
  it("reports Kafka's Long.MAX, no flush by count, when the broker sets none, and takes it back", () => {
    expect(topicConfigDefinition('flush.messages')?.defaultValue(broker())).toBe('9223372036854775807');
    expect(topicConfigsProblem({ 'flush.messages': '9223372036854775807' })).toBeUndefined();
    expect(logConfigFor(broker(), { 'flush.messages': '9223372036854775807' }).flushMessages).toBe(
      Number.POSITIVE_INFINITY,
    );
    expect(logConfigFor(broker(), { 'flush.messages': '1000' }).flushMessages).toBe(1000);
    const configured = brokerConfigSchema.parse({ log: { flushMessages: 500 } });
    expect(topicConfigDefinition('flush.messages')?.defaultValue(configured)).toBe('500');
  });
});
