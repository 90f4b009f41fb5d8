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
    expect(topicConfigsProblem({ 'min.insync.replicas': '0' })).toMatch(/"min\.insync\.replicas"/);
    expect(topicConfigsProblem({ 'min.insync.replicas': 'two' })).toMatch(/"min\.insync\.replicas"/);
    expect(topicConfigsProblem({ 'unclean.leader.election.enable': 'yes' })).toMatch(
      /"unclean\.leader\.election\.enable"/,
    );
  });
});
