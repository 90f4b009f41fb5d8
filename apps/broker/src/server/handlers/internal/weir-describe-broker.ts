import { WeirDescribeBroker } from '@weir/protocol';
import { API_ACL_RULES } from '../../../security/acl/api-acl-rules';
import { deniedError, NO_ERROR } from '../../answers/top-level-error';
import { defineHandler } from '../../handler';

const RULES = API_ACL_RULES.WeirDescribeBroker;

/**
 * WeirDescribeBroker v0: the overview, read from memory; it has no failure of its own. Needs
 * DESCRIBE on the cluster; a denial carries only the error.
 */
export const weirDescribeBrokerHandler = defineHandler({
  api: WeirDescribeBroker,
  versions: { min: 0, max: 0 },
  async handle(_request, context, services) {
    if (!context.access.allows(RULES.cluster)) {
      return {
        ...deniedError(RULES.cluster),
        nodeId: -1,
        clusterId: '',
        version: '',
        startedAtMs: -1n,
        listeners: [],
        checks: [],
        topicCount: 0,
        internalTopicCount: 0,
        partitionCount: 0,
        groupCount: 0,
        connectionCount: 0,
        logSizeBytes: 0n,
        throughput: {
          windowMs: 0,
          bytesInPerSecond: 0,
          recordsInPerSecond: 0,
          bytesOutPerSecond: 0,
          recordsOutPerSecond: 0,
          requestsPerSecond: 0,
        },
      };
    }
    const overview = services.operator.overview.describeBroker();
    return {
      ...NO_ERROR,
      ...overview,
      startedAtMs: BigInt(overview.startedAtMs),
      listeners: [...overview.listeners],
      checks: [...overview.checks],
      throughput: { ...overview.throughput },
    };
  },
});
