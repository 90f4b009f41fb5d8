import { describe, expect, it } from 'vitest';
import { brokerReadiness, type ReadinessSources } from './broker-readiness';
import { readinessReport } from './http/health-server';

function sources(overrides: Partial<ReadinessSources> = {}): ReadinessSources {
  return {
    storageReady: true,
    listening: true,
    stopping: false,
    replicas: { offlinePartitions: () => [], writeDegradedPartitions: () => [] },
    groupCoordinator: { loadState: () => ({ loaded: true, loadingPartitions: 0, failedPartitions: [] }) },
    transactionCoordinator: { readiness: () => ({ ok: true, detail: 'transactions loaded' }) },
    clientListener: { port: 9092 },
    internalListener: { port: 9093 },
    ...overrides,
  };
}

describe('broker readiness', () => {
  it('is ready when everything serves', () => {
    const report = readinessReport(brokerReadiness(sources()));
    expect(report.status).toBe('ready');
    expect(report.checks.find((check) => check.name === 'partitions')).toEqual({
      name: 'partitions',
      ok: true,
      detail: 'all online',
    });
  });

  it('stays ready but degraded with partitions offline or out of space, naming each with what to do', () => {
    const report = readinessReport(
      brokerReadiness(
        sources({
          replicas: {
            offlinePartitions: () => [
              { topic: 'orders', partition: 3, reason: 'read /data/orders-3/0.log failed: EIO' },
            ],
            writeDegradedPartitions: () => [
              { topic: 'audit', partition: 0, reason: 'write failed: ENOSPC', sinceMs: Date.UTC(2026, 0, 2) },
            ],
          },
        }),
      ),
    );
    expect(report.status).toBe('degraded');
    expect(report.checks[0]).toEqual({
      name: 'partitions',
      ok: false,
      impact: 'degraded',
      detail: '1 offline (orders-3); 1 refusing writes: out of disk space (audit-0)',
      problems: [
        {
          subject: 'orders-3',
          state: 'offline',
          error: 'read /data/orders-3/0.log failed: EIO',
          action: expect.stringContaining(
            '`weir log check orders 3`, then repair it with `weir log repair orders 3`',
          ),
        },
        {
          subject: 'audit-0',
          state: 'out-of-space',
          error: 'write failed: ENOSPC',
          action: expect.stringContaining('free disk space'),
          since: '2026-01-02T00:00:00.000Z',
        },
      ],
    });
  });

  it('lists at most 100 problems, while the detail still counts every partition', () => {
    const offline = Array.from({ length: 150 }, (_, partition) => ({ topic: 't', partition, reason: 'EIO' }));
    const [check] = readinessReport(
      brokerReadiness(
        sources({ replicas: { offlinePartitions: () => offline, writeDegradedPartitions: () => [] } }),
      ),
    ).checks;
    expect(check?.problems).toHaveLength(100);
    expect(check?.detail).toMatch(/^150 offline \(t-0, .*, t-9 and 140 more\)$/);
  });

  it('is degraded when a coordinator partition failed to load, not ready while they load', () => {
    const failed = sources({
      groupCoordinator: { loadState: () => ({ loaded: true, loadingPartitions: 0, failedPartitions: [7] }) },
    });
    expect(readinessReport(brokerReadiness(failed)).status).toBe('degraded');
    const loading = sources({
      groupCoordinator: { loadState: () => ({ loaded: false, loadingPartitions: 3, failedPartitions: [] }) },
    });
    expect(readinessReport(brokerReadiness(loading)).status).toBe('not ready');
  });

  it('is not ready before storage is recovered and while shutting down', () => {
    expect(readinessReport(brokerReadiness(sources({ storageReady: false }))).status).toBe('not ready');
    const stopping = readinessReport(brokerReadiness(sources({ listening: false, stopping: true })));
    expect(stopping.status).toBe('not ready');
    expect(stopping.checks[0]).toEqual({ name: 'client-listener', ok: false, detail: 'shutting down' });
  });

  it('notes under-replicated partitions, and is degraded by those under min ISR and leaderless ones, naming them', () => {
    const shortfall = (partition: number, isrCount: number) => ({
      topic: 'orders',
      partition,
      isrCount,
      replicaCount: 3,
      minInsyncReplicas: 2,
    });
    const noted = readinessReport(
      brokerReadiness(
        sources({
          replication: {
            underReplicated: [shortfall(1, 2)],
            underMinIsr: [],
            atMinIsr: [shortfall(1, 2)],
            leaderless: [],
            followerLags: [],
          },
        }),
      ),
    );
    expect(noted.status).toBe('ready');
    expect(noted.checks.find((check) => check.name === 'in-sync-replicas')).toEqual({
      name: 'in-sync-replicas',
      ok: true,
      detail: 'note: 1 under-replicated, acks=all still served (orders-1 ISR 2 of 3)',
    });
    expect(noted.checks.find((check) => check.name === 'leaderless-partitions')?.ok).toBe(true);

    const degraded = readinessReport(
      brokerReadiness(
        sources({
          replication: {
            underReplicated: [shortfall(1, 2), shortfall(2, 1)],
            underMinIsr: [shortfall(2, 1)],
            atMinIsr: [shortfall(1, 2)],
            leaderless: ['audit-0'],
            followerLags: [],
          },
        }),
      ),
    );
    expect(degraded.status).toBe('degraded');
    expect(degraded.summary).toBe(
      'degraded: in-sync-replicas: 1 under min.insync.replicas, acks=all refused (orders-2); 1 more under-replicated; leaderless-partitions: 1 without a live leader (audit-0)',
    );
    expect(degraded.checks[0]).toMatchObject({
      name: 'in-sync-replicas',
      impact: 'degraded',
      problems: [
        {
          subject: 'orders-2',
          state: 'under-min-isr',
          error: 'ISR 1 of 3, min.insync.replicas 2',
          action: expect.stringContaining('NOT_ENOUGH_REPLICAS'),
        },
      ],
    });
    expect(degraded.checks[1]).toMatchObject({
      name: 'leaderless-partitions',
      impact: 'degraded',
      problems: [{ subject: 'audit-0', state: 'leaderless' }],
    });
  });

  it('has no leaderless check on a broker that is not the controller', () => {
    const checks = brokerReadiness(
      sources({
        replication: {
          underReplicated: [],
          underMinIsr: [],
          atMinIsr: [],
          leaderless: undefined,
          followerLags: [],
        },
      }),
    );
    expect(checks.map((check) => check.name)).toContain('in-sync-replicas');
    expect(checks.map((check) => check.name)).not.toContain('leaderless-partitions');
  });
});
