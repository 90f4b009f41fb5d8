// The public entry point of @weir/broker, for code outside the broker that runs one in-process:
// the test broker (@weir/test-broker) and the benchmarks. Every name is listed explicitly: no
// `export *`. The `weir` CLI is the broker's other way in (bin/weir.js).

export type { BrokerDeps } from './broker';
export { Broker } from './broker';
export type { BrokerConfigInput } from './config/broker-config';
export { brokerConfigSchema } from './config/broker-config';
export type { BrokerMetrics } from './http/metrics';
export { createBrokerMetrics } from './http/metrics';
export { createLogger } from './logger';
export { groupConsumedKey, groupLagKey, groupProducedKey, partitionLagKey } from './stats/history-keys';
export { HISTORY_FILE } from './stats/history-sampler';
export type { HistorySample } from './stats/history-store';
export { HistoryStore } from './stats/history-store';
export { bytesPerSeries, historyTiers } from './stats/history-tiers';
