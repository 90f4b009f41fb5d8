import { z } from 'zod';
import { auditConfigSchema } from './audit-config';
import {
  checkListenerSecurity,
  checkTrustedCertificatePrincipals,
  listenerTlsSchema,
} from './listener-tls-schema';
import { principalList } from './principal-list';
import { statsConfigSchema } from './stats-config';

/**
 * The broker's configuration, validated with zod. Every size and duration carries its unit in its
 * name. Topic-level defaults keep Kafka's meaning (the Kafka name is in each comment) so operators
 * can map what they know; per-topic overrides use the Kafka names themselves (see topic-configs).
 */
const endpointSchema = z.strictObject({
  host: z.string().min(1).default('127.0.0.1'),
  port: z.number().int().min(0).max(65535),
});

const clientListenerSchema = endpointSchema.extend({
  port: z.number().int().min(0).max(65535).default(9092),
  /** The host clients are told to connect to (Metadata); defaults to `host`. */
  advertisedHost: z.string().min(1).optional(),
  /** The port clients are told to connect to; defaults to the bound port. */
  advertisedPort: z.number().int().min(1).max(65535).optional(),
});

/**
 * A list setting that also takes `a,b,c`, the only way to give a list in an environment variable
 * or `--set` (both are scalar).
 */
function commaList<T extends z.ZodType>(item: T) {
  return z.preprocess(
    (value) =>
      typeof value === 'string'
        ? value
            .split(',')
            .map((part) => part.trim())
            .filter((part) => part.length > 0)
        : value,
    z.array(item),
  );
}

/** The values of log.cleanup.policy and of a topic's cleanup.policy list. */
export const CLEANUP_POLICIES = ['delete', 'compact'] as const;

/** The SASL mechanisms a SASL client listener can offer (docs/architecture.md §7). */
export const CLIENT_SASL_MECHANISMS = ['PLAIN', 'SCRAM-SHA-256', 'SCRAM-SHA-512'] as const;

/**
 * The client listener with its security: `securityProtocol` as Kafka names it, and the SASL
 * mechanisms offered when it is SASL_PLAINTEXT or SASL_SSL.
 */
const securedClientListenerSchema = clientListenerSchema
  .extend({
    securityProtocol: z.enum(['PLAINTEXT', 'SSL', 'SASL_PLAINTEXT', 'SASL_SSL']).default('PLAINTEXT'),
    /** sasl.enabled.mechanisms, in the order SaslHandshake lists them. */
    saslMechanisms: commaList(z.enum(CLIENT_SASL_MECHANISMS))
      .refine((mechanisms) => mechanisms.length > 0, 'lists no mechanism')
      .refine((mechanisms) => new Set(mechanisms).size === mechanisms.length, 'lists a mechanism twice')
      .default([...CLIENT_SASL_MECHANISMS]),
    /** Certificate, key and client authentication; required by SSL and SASL_SSL, refused otherwise. */
    tls: listenerTlsSchema.optional(),
  })
  .superRefine((listener, ctx) => checkListenerSecurity(listener, [], ctx));

/**
 * The broker-internal listener (docs/architecture.md §7): Kafka admin APIs plus the Weir-only ones, for the
 * console's gateway and other brokers, authenticated by a shared token (SASL mechanism WEIR-TOKEN)
 * or by a trusted client certificate (mutual TLS) with an empty token.
 */
const internalListenerSchema = clientListenerSchema
  .extend({
    enabled: z.boolean().default(true),
    port: z.number().int().min(0).max(65535).default(9093),
    /**
     * The shared token clients must present. When absent, one is generated on first start and kept in
     * `<dataDir>/internal-listener.token` (mode 0600). Never printed or logged.
     */
    token: z.string().min(16).optional(),
    /** TLS under the token authentication (SASL_SSL in Kafka's terms); plaintext when absent. */
    tls: listenerTlsSchema.optional(),
    /**
     * Principals (as `tls.principalMapping` derives them, e.g. `User:CN=weir-console`) whose verified
     * client certificate stands in for the token: they may authenticate with an empty WEIR-TOKEN.
     * Needs `tls` with clientAuth requested or required.
     */
    trustedCertificatePrincipals: principalList().default([]),
  })
  .superRefine((listener, ctx) => {
    checkListenerSecurity(listener, [], ctx);
    checkTrustedCertificatePrincipals(listener, [], ctx);
  });

export const brokerConfigSchema = z.strictObject({
  /** broker.id / node.id */
  nodeId: z.number().int().min(0).default(0),
  /** Where partition logs and the local metadata store live. */
  dataDir: z.string().min(1).default('./data'),
  /** Reported in Metadata v2+; generated and persisted on first start when absent. */
  clusterId: z.string().min(1).optional(),
  /** broker.rack: placement spreads a partition's replicas over racks when brokers name theirs. */
  rack: z.string().min(1).max(255).optional(),
  /**
   * Cluster mode (docs/architecture.md §6.4): with etcd endpoints the metadata lives in etcd and
   * several brokers form one cluster; without, the broker is standalone with its metadata in the data
   * directory. `nodeId` must then be set explicitly, one per broker.
   */
  cluster: z
    .strictObject({
      /** The etcd members to reach (`http://host:port`); empty means standalone. */
      etcdEndpoints: commaList(z.url({ protocol: /^https?$/ })).default([]),
      /**
       * The cluster's name: its keys live under `/weir/<name>/`, so one etcd can hold several
       * clusters and a broker configured for one never reads another's.
       */
      name: z
        .string()
        .regex(/^[A-Za-z0-9._-]{1,64}$/, 'a cluster name is 1-64 letters, digits, ".", "_" or "-"')
        .default('weir'),
      /** The deadline of every etcd call. */
      etcdRequestTimeoutMs: z.number().int().min(100).default(3000),
      /**
       * The TTL of the broker's etcd lease, its session: a broker that stops renewing it for this
       * long is taken for dead and stops leading (Kafka's broker.session.timeout.ms).
       */
      sessionTtlSeconds: z.number().int().min(2).max(300).default(6),
      /** The TTL of the controller election: how long a dead controller keeps the title. */
      controllerTtlSeconds: z.number().int().min(2).max(300).default(5),
      /**
       * How long a broker stopping on SIGTERM may spend handing the leadership of its partitions to
       * other in-sync replicas and leaving the ISRs it is in before it stops anyway
       * (docs/architecture.md §6.3; Kafka's controlled.shutdown.enable with its retries and backoff,
       * bounded in time instead). 0 skips the handover: the controller then moves the leaders once
       * the broker's session ends.
       */
      controlledShutdownTimeoutMs: z.number().int().min(0).default(30_000),
      /**
       * How brokers authenticate to each other's internal listener (interbroker/inter-broker-credentials.ts;
       * Kafka's sasl.mechanism.inter.broker.protocol): `token`, the internal listener's token, which must
       * then be the same on every broker; `secret`, the cluster secret in `secretFile`; `certificate`,
       * mutual TLS with the internal listener's own certificate, which the peers trust through
       * `listeners.internal.trustedCertificatePrincipals`.
       */
      interBrokerAuthentication: z.enum(['token', 'secret', 'certificate']).default('token'),
      /** The file holding the cluster secret every broker shares (`secret` authentication). */
      secretFile: z.string().min(1).optional(),
      /** The deadline of every call to another broker (Kafka's request.timeout.ms between brokers). */
      interBrokerRequestTimeoutMs: z.number().int().min(100).default(10_000),
      /**
       * How long the replication timeline keeps an event (docs/architecture.md §6): the controller
       * (or a standalone broker) prunes older ones periodically. 7 days by default.
       */
      eventsRetentionMs: z
        .number()
        .int()
        .min(60_000)
        .default(7 * 24 * 60 * 60 * 1000),
      /** How many events the timeline keeps at most; the oldest beyond it are pruned. */
      eventsMaxCount: z.number().int().min(100).max(1_000_000).default(50_000),
      /**
       * auto.leader.rebalance.enable: while this broker is controller, it periodically makes the
       * preferred replica (the first) leader again of partitions whose preferred leader is back in
       * sync, for brokers whose imbalance exceeds `leaderImbalancePerBrokerPercentage`
       * (cluster/leader-rebalancer.ts).
       */
      autoLeaderRebalanceEnable: z.boolean().default(true),
      /** leader.imbalance.check.interval.seconds: how often the controller checks the balance. */
      leaderImbalanceCheckIntervalSeconds: z.number().int().min(1).max(86_400).default(300),
      /**
       * leader.imbalance.per.broker.percentage: the share of the partitions a broker is preferred
       * leader of that it may lead not, before the rebalance acts for it.
       */
      leaderImbalancePerBrokerPercentage: z.number().int().min(0).max(100).default(10),
    })
    .superRefine((cluster, ctx) => {
      if (cluster.interBrokerAuthentication === 'secret' && cluster.secretFile === undefined) {
        ctx.addIssue({
          code: 'custom',
          path: ['secretFile'],
          message: 'required when interBrokerAuthentication is secret',
        });
      }
    })
    .prefault({}),
  listeners: z
    .strictObject({
      client: securedClientListenerSchema.prefault({}),
      internal: internalListenerSchema.prefault({}),
    })
    .prefault({}),
  health: endpointSchema.extend({ port: z.number().int().min(0).max(65535).default(9080) }).prefault({}),
  metrics: endpointSchema.extend({ port: z.number().int().min(0).max(65535).default(9100) }).prefault({}),
  limits: z
    .strictObject({
      /** socket.request.max.bytes */
      maxFrameBytes: z
        .number()
        .int()
        .min(1024)
        .default(100 * 1024 * 1024),
      /**
       * sasl.server.max.receive.size: the largest frame a connection on a SASL listener may send
       * before it has authenticated; a larger size prefix closes it before the body is read.
       */
      maxFrameBytesBeforeAuthentication: z.number().int().min(1024).default(524_288),
      /** connections.max.idle.ms */
      idleTimeoutMs: z.number().int().min(1).default(600_000),
      /** max.connections */
      maxConnections: z.number().int().min(1).default(10_000),
      /** Requests read from one connection before its answers are written; reading pauses beyond. */
      maxInFlightRequestsPerConnection: z.number().int().min(1).default(1000),
      /** fetch.max.bytes: the most record bytes one Fetch answer holds, whatever its max_bytes. */
      fetchMaxBytes: z
        .number()
        .int()
        .min(1024)
        .default(55 * 1024 * 1024),
      /**
       * How much of one Fetch answer is read into memory before it is written; the rest is read
       * from its segment files a chunk at a time as the client's socket drains (0: all of it).
       */
      fetchInMemoryBytes: z
        .number()
        .int()
        .min(0)
        .default(1024 * 1024),
    })
    .prefault({}),
  quotas: z
    .strictObject({
      /** quota.window.num: samples a client quota's rate is measured over (at least 2). */
      windowCount: z.number().int().min(2).default(11),
      /** quota.window.size.seconds: the length of one sample. */
      windowSizeSeconds: z.number().int().min(1).default(1),
    })
    .prefault({}),
  topics: z
    .strictObject({
      /** auto.create.topics.enable */
      autoCreateEnable: z.boolean().default(true),
      /** num.partitions */
      defaultPartitions: z.number().int().min(1).default(1),
      /** default.replication.factor: for topics created without one (auto-created, or -1). */
      defaultReplicationFactor: z.number().int().min(1).max(32767).default(1),
      /**
       * min.insync.replicas: the in-sync replicas an acks=all produce needs, for topics that do not
       * set their own (docs/architecture.md §6.2).
       */
      minInsyncReplicas: z.number().int().min(1).max(32767).default(1),
      /**
       * unclean.leader.election.enable: whether a partition with no in-sync replica left may be led
       * by an out-of-sync one (losing what it lacks), for topics that do not set their own.
       */
      uncleanLeaderElectionEnable: z.boolean().default(false),
    })
    .prefault({}),
  replication: z
    .strictObject({
      /**
       * replica.lag.time.max.ms: a follower that has not caught up with the leader's log end for
       * this long leaves the ISR.
       */
      replicaLagTimeMaxMs: z.number().int().min(1).default(30_000),
    })
    .prefault({}),
  log: z
    .strictObject({
      /** log.segment.bytes */
      segmentBytes: z
        .number()
        .int()
        .min(1024)
        .default(1024 * 1024 * 1024),
      /** log.roll.ms */
      segmentMs: z
        .number()
        .int()
        .min(1)
        .default(7 * 24 * 3600 * 1000),
      /** log.retention.ms (-1: forever) */
      retentionMs: z
        .number()
        .int()
        .min(-1)
        .default(7 * 24 * 3600 * 1000),
      /** log.retention.bytes (-1: unlimited) */
      retentionBytes: z.number().int().min(-1).default(-1),
      /** log.retention.check.interval.ms */
      retentionCheckIntervalMs: z.number().int().min(1).default(300_000),
      /** log.flush.interval.messages (omit for never) */
      flushMessages: z.number().int().min(1).optional(),
      /** log.flush.interval.ms */
      flushMs: z.number().int().min(1).default(100),
      /** log.index.interval.bytes */
      indexIntervalBytes: z.number().int().min(0).default(4096),
      /** log.index.size.max.bytes */
      maxIndexBytes: z
        .number()
        .int()
        .min(1024)
        .default(10 * 1024 * 1024),
      /** message.max.bytes */
      maxMessageBytes: z
        .number()
        .int()
        .min(64)
        .default(1024 * 1024 + 12),
      /** log.message.timestamp.type */
      timestampType: z.enum(['CreateTime', 'LogAppendTime']).default('CreateTime'),
      /**
       * log.message.timestamp.before.max.ms: how far before the broker's clock a CreateTime record's
       * timestamp may be (omit for no limit, Kafka's Long.MAX).
       */
      timestampBeforeMaxMs: z.number().int().min(0).optional(),
      /**
       * log.message.timestamp.after.max.ms: how far after the broker's clock a CreateTime record's
       * timestamp may be (omit for no limit, Kafka 3.x's Long.MAX).
       */
      timestampAfterMaxMs: z.number().int().min(0).optional(),
      /**
       * log.message.timestamp.difference.max.ms, deprecated: the limit either of the two above
       * takes when it is omitted (omit for no limit).
       */
      timestampDifferenceMaxMs: z.number().int().min(0).optional(),
      /** Segment files kept open at once across all partitions. */
      maxOpenFiles: z.number().int().min(16).default(1024),
      /**
       * log.cleanup.policy: `delete` (retention deletes old segments), `compact` (the cleaner keeps
       * the latest record per key), or both, for topics that do not set cleanup.policy.
       */
      cleanupPolicy: commaList(z.enum(CLEANUP_POLICIES))
        .refine((policies) => policies.length > 0, 'lists no policy')
        .refine((policies) => new Set(policies).size === policies.length, 'lists a policy twice')
        .default(['delete']),
      /** The log cleaner, which compacts topics whose cleanup.policy contains `compact`. */
      cleaner: z
        .strictObject({
          /** log.cleaner.enable */
          enable: z.boolean().default(true),
          /** log.cleaner.threads: partitions cleaned at once. */
          threads: z.number().int().min(1).default(1),
          /** log.cleaner.dedupe.buffer.size: memory for the key map, shared by all cleaner threads. */
          dedupeBufferBytes: z
            .number()
            .int()
            .min(1024 * 1024)
            .default(128 * 1024 * 1024),
          /** log.cleaner.io.max.bytes.per.second: the cleaner's read and write rate (omit for unlimited). */
          ioMaxBytesPerSecond: z.number().positive().optional(),
          /** log.cleaner.backoff.ms: the pause when no log needs cleaning. */
          backoffMs: z.number().int().min(0).default(15_000),
          /** log.cleaner.min.cleanable.ratio: the default of min.cleanable.dirty.ratio. */
          minCleanableRatio: z.number().min(0).max(1).default(0.5),
          /** log.cleaner.delete.retention.ms: the default of delete.retention.ms. */
          deleteRetentionMs: z
            .number()
            .int()
            .min(0)
            .default(24 * 3600 * 1000),
          /** log.cleaner.min.compaction.lag.ms: the default of min.compaction.lag.ms. */
          minCompactionLagMs: z.number().int().min(0).default(0),
          /**
           * log.cleaner.max.compaction.lag.ms: the default of max.compaction.lag.ms (omit for no
           * limit, Kafka's Long.MAX).
           */
          maxCompactionLagMs: z.number().int().min(1).optional(),
        })
        .refine(
          (cleaner) =>
            cleaner.maxCompactionLagMs === undefined ||
            cleaner.minCompactionLagMs <= cleaner.maxCompactionLagMs,
          { message: 'minCompactionLagMs must not exceed maxCompactionLagMs', path: ['minCompactionLagMs'] },
        )
        .prefault({}),
    })
    .prefault({}),
  groups: z
    .strictObject({
      /** offsets.topic.num.partitions; only read when `__consumer_offsets` is first created. */
      offsetsTopicPartitions: z.number().int().min(1).max(1000).default(50),
      /**
       * offsets.topic.replication.factor; only read when `__consumer_offsets` is first created, which
       * gets the smaller of this and the live brokers (docs/architecture.md §6.2).
       */
      offsetsTopicReplicationFactor: z.number().int().min(1).max(32767).default(3),
      /** group.initial.rebalance.delay.ms: how long the first rebalance of an empty group waits. */
      initialRebalanceDelayMs: z.number().int().min(0).default(3000),
      /** group.min.session.timeout.ms */
      minSessionTimeoutMs: z.number().int().min(1).default(6000),
      /** group.max.session.timeout.ms */
      maxSessionTimeoutMs: z.number().int().min(1).default(1_800_000),
      /** offsets.retention.minutes: how long an empty group keeps its committed offsets. */
      offsetsRetentionMinutes: z.number().int().min(1).default(10_080),
      /** offsets.retention.check.interval.ms */
      offsetsRetentionCheckIntervalMs: z.number().int().min(1).default(600_000),
      /** group.consumer.heartbeat.interval.ms: how often consumer-protocol (KIP-848) members heartbeat. */
      consumerHeartbeatIntervalMs: z.number().int().min(1).default(5000),
      /** group.consumer.session.timeout.ms: a consumer-protocol member silent this long is fenced. */
      consumerSessionTimeoutMs: z.number().int().min(1).default(45_000),
    })
    .refine((groups) => groups.minSessionTimeoutMs <= groups.maxSessionTimeoutMs, {
      message: 'minSessionTimeoutMs must not exceed maxSessionTimeoutMs',
      path: ['minSessionTimeoutMs'],
    })
    .refine((groups) => groups.consumerHeartbeatIntervalMs < groups.consumerSessionTimeoutMs, {
      message: 'consumerHeartbeatIntervalMs must be less than consumerSessionTimeoutMs',
      path: ['consumerHeartbeatIntervalMs'],
    })
    .prefault({}),
  transactions: z
    .strictObject({
      /** transaction.state.log.num.partitions; only read when `__transaction_state` is first created. */
      stateTopicPartitions: z.number().int().min(1).max(1000).default(50),
      /**
       * transaction.state.log.replication.factor; only read when `__transaction_state` is first
       * created, which gets the smaller of this and the live brokers (docs/architecture.md §6.2).
       */
      stateTopicReplicationFactor: z.number().int().min(1).max(32767).default(3),
      /** transaction.max.timeout.ms: a longer transaction.timeout.ms gets INVALID_TRANSACTION_TIMEOUT. */
      maxTimeoutMs: z.number().int().min(1).default(900_000),
      /** transactional.id.expiration.ms: an idle transactional id is forgotten after this long. */
      idExpirationMs: z
        .number()
        .int()
        .min(1)
        .default(7 * 24 * 3600 * 1000),
      /** transaction.abort.timed.out.transaction.cleanup.interval.ms (id expiry runs on it too). */
      abortTimedOutCheckIntervalMs: z.number().int().min(1).default(10_000),
    })
    .prefault({}),
  logging: z
    .strictObject({
      level: z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent']).default('info'),
      /** Human-readable lines instead of JSON; by default only on a terminal. */
      pretty: z.boolean().optional(),
      /**
       * Warnings of one kind that clients can cause (refused connections, frames, requests and
       * authentications) written per interval; the rest become one summary line (Weir's own).
       */
      maxWarningsPerInterval: z.number().int().min(1).default(10),
      /** The interval of `maxWarningsPerInterval`. */
      warningIntervalMs: z.number().int().min(1000).default(60_000),
    })
    .prefault({}),
  security: z
    .strictObject({
      /**
       * A SCRAM user created (or given this password) at every start, so a secured broker can be
       * administered from the first start. The password is a secret: masked in `config print`,
       * never logged.
       */
      bootstrapAdmin: z.strictObject({ username: z.string().min(1), password: z.string().min(8) }).optional(),
      /** super.users, as principals (`User:admin`): allowed everything by the authorizer. */
      superUsers: commaList(z.string().regex(/^User:.+/, 'a principal is User:<name>')).default([]),
      /** allow.everyone.if.no.acl.found */
      allowEveryoneIfNoAclFound: z.boolean().default(true),
      /**
       * The answer to a failed authentication waits this long, doubling per failure from the same
       * address (or at the same user name) up to 16 times it, so guessing passwords is slow (0: no
       * delay).
       */
      authFailureDelayMs: z.number().int().min(0).default(1000),
      /**
       * SASL exchanges in progress at once from one client address, a failed one's delay included;
       * more are refused (SASL_AUTHENTICATION_FAILED) before their credentials are checked. Weir's
       * own setting: Kafka has none.
       */
      maxConcurrentAuthenticationsPerAddress: z.number().int().min(1).default(16),
      /** SASL exchanges in progress at once for one user name, from any address (Weir's own). */
      maxConcurrentAuthenticationsPerUser: z.number().int().min(1).default(64),
    })
    .prefault({}),
  /** Lag and throughput history (stats-config.ts). */
  stats: statsConfigSchema,
  /** The audit log of administrative actions (audit-config.ts). */
  audit: auditConfigSchema,
  /** How long a graceful shutdown may take before the process exits anyway. */
  shutdownTimeoutMs: z.number().int().min(1).default(30_000),
});

export type BrokerConfig = z.infer<typeof brokerConfigSchema>;
/** The configuration as written by a user: every field optional. */
export type BrokerConfigInput = z.input<typeof brokerConfigSchema>;
