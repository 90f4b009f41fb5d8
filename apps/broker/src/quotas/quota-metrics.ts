import type { BrokerMetrics } from '../http/metrics';
import type { QuotaObserver } from './client-quota-manager';

/** Counts quota usage and throttle time in the broker's metrics. */
export function quotaMetrics(
  metrics: Pick<BrokerMetrics, 'quotaUsageTotal' | 'quotaThrottleSecondsTotal'>,
): QuotaObserver {
  return {
    onRecorded(quota, entity, value) {
      metrics.quotaUsageTotal.inc({ quota, entity }, value);
    },
    onThrottled(quota, entity, throttleMs) {
      metrics.quotaThrottleSecondsTotal.inc({ quota, entity }, throttleMs / 1000);
    },
  };
}
