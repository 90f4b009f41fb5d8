import { describe, expect, it } from 'vitest';
import { brokerConfigSchema } from './broker-config';
import type { ConfigError } from './config-error';
import { listConfigKeys } from './config-keys';
import type { ConfigFlags } from './flag-overrides';
import { type LoadConfigResult, loadConfig } from './load-config';
import { isOtherProgramsVariable } from './other-programs-variables';

/** Loads with an in-memory file system, so each test states exactly which files exist. */
function load(
  options: { flags?: ConfigFlags; env?: Record<string, string>; files?: Record<string, string> } = {},
): Promise<LoadConfigResult> {
  const files = options.files ?? {};
  return loadConfig({
    flags: options.flags ?? {},
    env: options.env ?? {},
    readFile: async (path) => {
      const text = files[path];
      if (text === undefined) throw new Error(`ENOENT: no such file or directory, open '${path}'`);
      return text;
    },
  });
}

async function errorsOf(result: Promise<LoadConfigResult>): Promise<ConfigError[]> {
  const loaded = await result;
  if (loaded.ok) throw new Error('expected the configuration to be rejected');
  return loaded.errors;
}

async function configOf(result: Promise<LoadConfigResult>) {
  const loaded = await result;
  if (!loaded.ok) throw new Error(`unexpected errors: ${JSON.stringify(loaded.errors)}`);
  return loaded.config;
}

describe('loadConfig precedence', () => {
  it('uses the schema defaults when nothing is given', async () => {
    const config = await configOf(load());
    expect(config.dataDir).toBe('./data');
    expect(config.listeners.client).toEqual({
      host: '127.0.0.1',
      port: 9092,
      securityProtocol: 'PLAINTEXT',
      saslMechanisms: ['PLAIN', 'SCRAM-SHA-256', 'SCRAM-SHA-512'],
    });
    expect(config.security).toEqual({
      superUsers: [],
      allowEveryoneIfNoAclFound: true,
      authFailureDelayMs: 1000,
      maxConcurrentAuthenticationsPerAddress: 16,
      maxConcurrentAuthenticationsPerUser: 64,
    });
    expect(config.log.flushMs).toBe(100);
  });

  it('has Kafka’s replication defaults, and takes them from the file and the environment', async () => {
    const defaults = await configOf(load());
    expect(defaults.topics).toMatchObject({ minInsyncReplicas: 1, uncleanLeaderElectionEnable: false });
    expect(defaults.replication.replicaLagTimeMaxMs).toBe(30_000);
    expect(defaults.groups.offsetsTopicReplicationFactor).toBe(3);
    expect(defaults.transactions.stateTopicReplicationFactor).toBe(3);

    const set = await configOf(
      load({
        files: { 'weir.yaml': 'topics:\n  minInsyncReplicas: 2\n  uncleanLeaderElectionEnable: true\n' },
        env: { WEIR_CONFIG: 'weir.yaml', WEIR_REPLICATION__REPLICA_LAG_TIME_MAX_MS: '5000' },
      }),
    );
    expect(set.topics).toMatchObject({ minInsyncReplicas: 2, uncleanLeaderElectionEnable: true });
    expect(set.replication.replicaLagTimeMaxMs).toBe(5000);

    const errors = await errorsOf(load({ env: { WEIR_TOPICS__MIN_INSYNC_REPLICAS: '0' } }));
    expect(errors.map((error) => error.key)).toContain('topics.minInsyncReplicas');
  });

  it('has Kafka’s log cleaner defaults, and takes them from the file and the environment', async () => {
    const defaults = await configOf(load());
    expect(defaults.log.cleanupPolicy).toEqual(['delete']);
    expect(defaults.log.cleaner).toEqual({
      enable: true,
      threads: 1,
      dedupeBufferBytes: 134_217_728,
      backoffMs: 15_000,
      minCleanableRatio: 0.5,
      deleteRetentionMs: 86_400_000,
      minCompactionLagMs: 0,
    });
    expect(defaults.log.cleaner.ioMaxBytesPerSecond).toBeUndefined();
    expect(defaults.log.cleaner.maxCompactionLagMs).toBeUndefined();

    const set = await configOf(
      load({
        files: {
          'weir.yaml':
            'log:\n  cleanupPolicy: [compact, delete]\n  cleaner:\n    threads: 2\n    minCleanableRatio: 0.25\n',
        },
        env: {
          WEIR_CONFIG: 'weir.yaml',
          WEIR_LOG__CLEANER__ENABLE: 'false',
          WEIR_LOG__CLEANER__IO_MAX_BYTES_PER_SECOND: '1048576',
          WEIR_LOG__CLEANER__MAX_COMPACTION_LAG_MS: '60000',
        },
      }),
    );
    expect(set.log.cleanupPolicy).toEqual(['compact', 'delete']);
    expect(set.log.cleaner).toMatchObject({
      enable: false,
      threads: 2,
      minCleanableRatio: 0.25,
      ioMaxBytesPerSecond: 1_048_576,
      maxCompactionLagMs: 60_000,
    });
    expect(
      (await configOf(load({ env: { WEIR_LOG__CLEANUP_POLICY: 'compact' } }))).log.cleanupPolicy,
    ).toEqual(['compact']);

    const errors = await errorsOf(
      load({
        env: {
          WEIR_LOG__CLEANUP_POLICY: 'compact,shred',
          WEIR_LOG__CLEANER__THREADS: '0',
          WEIR_LOG__CLEANER__DEDUPE_BUFFER_BYTES: '1024',
          WEIR_LOG__CLEANER__MIN_CLEANABLE_RATIO: '1.5',
        },
      }),
    );
    expect(errors.map((error) => error.key).sort()).toEqual([
      'log.cleaner.dedupeBufferBytes',
      'log.cleaner.minCleanableRatio',
      'log.cleaner.threads',
      expect.stringMatching(/^log\.cleanupPolicy/),
    ]);
    const lagErrors = await errorsOf(
      load({
        env: {
          WEIR_LOG__CLEANER__MIN_COMPACTION_LAG_MS: '2000',
          WEIR_LOG__CLEANER__MAX_COMPACTION_LAG_MS: '1000',
        },
      }),
    );
    expect(lagErrors.map((error) => error.key)).toEqual(['log.cleaner.minCompactionLagMs']);
  });

  it('layers defaults < file < environment < flags, key by key', async () => {
    const files = {
      'weir.yaml': [
        'dataDir: /from/file',
        'nodeId: 1',
        'log:',
        '  flushMs: 10',
        '  segmentBytes: 2048',
        '',
      ].join('\n'),
    };
    const env = { WEIR_LOG__FLUSH_MS: '20', WEIR_NODE_ID: '2' };
    const flags = { config: 'weir.yaml', set: ['log.flushMs=30'] };
    const config = await configOf(load({ files, env, flags }));
    expect(config.log.flushMs).toBe(30); // flag beats env and file
    expect(config.nodeId).toBe(2); // env beats file
    expect(config.dataDir).toBe('/from/file'); // file beats default
    expect(config.log.segmentBytes).toBe(2048);
    expect(config.log.retentionBytes).toBe(-1); // untouched default beside overridden siblings
  });

  it('reads the file named by WEIR_CONFIG, and --config wins over it', async () => {
    const files = { 'a.yaml': 'nodeId: 1\n', 'b.yaml': 'nodeId: 2\n' };
    expect((await configOf(load({ files, env: { WEIR_CONFIG: 'a.yaml' } }))).nodeId).toBe(1);
    expect(
      (await configOf(load({ files, env: { WEIR_CONFIG: 'a.yaml' }, flags: { config: 'b.yaml' } }))).nodeId,
    ).toBe(2);
  });

  it('maps nested keys to WEIR_ variables with double underscores', async () => {
    const env = {
      WEIR_LISTENERS__CLIENT__PORT: '19092',
      WEIR_LISTENERS__CLIENT__ADVERTISED_HOST: 'broker.example',
      WEIR_DATA_DIR: '/var/lib/weir',
      WEIR_TOPICS__AUTO_CREATE_ENABLE: 'false',
      WEIR_LIMITS__MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION: '5',
    };
    const config = await configOf(load({ env }));
    expect(config.listeners.client.port).toBe(19092);
    expect(config.listeners.client.advertisedHost).toBe('broker.example');
    expect(config.dataDir).toBe('/var/lib/weir');
    expect(config.topics.autoCreateEnable).toBe(false);
    expect(config.limits.maxInFlightRequestsPerConnection).toBe(5);
  });

  it('keeps a double-quoted JSON string as a string, so number-like text can reach a string key', async () => {
    const config = await configOf(load({ env: { WEIR_CLUSTER_ID: '"12345"' } }));
    expect(config.clusterId).toBe('12345');
  });

  it('ignores variables without the WEIR_ prefix', async () => {
    const config = await configOf(load({ env: { PATH: '/bin', DATA_DIR: '/x', weir_data_dir: '/y' } }));
    expect(config.dataDir).toBe('./data');
  });

  it('applies the --data-dir, --host and --port shortcuts, with --set winning over them', async () => {
    const config = await configOf(
      load({ flags: { dataDir: '/d', host: '0.0.0.0', port: '1234', set: ['listeners.client.port=4321'] } }),
    );
    expect(config.dataDir).toBe('/d');
    expect(config.listeners.client.host).toBe('0.0.0.0');
    expect(config.listeners.client.port).toBe(4321);
  });

  it('treats an empty YAML value and an empty file as not set', async () => {
    const files = { 'a.yaml': 'clusterId:\nlog:\n', 'empty.yaml': '' };
    expect((await configOf(load({ files, flags: { config: 'a.yaml' } }))).clusterId).toBeUndefined();
    expect((await configOf(load({ files, flags: { config: 'empty.yaml' } }))).dataDir).toBe('./data');
  });
});

describe('loadConfig errors name the key, the source and the reason', () => {
  it('reports a value of the wrong type from the file with its line', async () => {
    const files = { 'weir.yaml': 'log:\n  flushMs: soon\n' };
    const errors = await errorsOf(load({ files, flags: { config: 'weir.yaml' } }));
    expect(errors).toEqual([
      {
        key: 'log.flushMs',
        source: 'file',
        reason: expect.stringMatching(/expected number.*"soon".*weir\.yaml line 2/),
      },
    ]);
  });

  it('reports an out-of-range value from the environment naming the variable', async () => {
    const errors = await errorsOf(load({ env: { WEIR_LISTENERS__CLIENT__PORT: '70000' } }));
    expect(errors).toEqual([
      {
        key: 'listeners.client.port',
        source: 'env',
        reason: expect.stringMatching(/<=65535.*70000.*WEIR_LISTENERS__CLIENT__PORT/),
      },
    ]);
  });

  it('reports a bad enum value from a flag', async () => {
    const errors = await errorsOf(load({ flags: { set: ['logging.level=loud'] } }));
    expect(errors).toEqual([
      { key: 'logging.level', source: 'flag', reason: expect.stringContaining('"loud"') },
    ]);
  });

  it('reports a bad shortcut value under the key it sets', async () => {
    const errors = await errorsOf(load({ flags: { port: 'http' } }));
    expect(errors).toEqual([
      { key: 'listeners.client.port', source: 'flag', reason: expect.stringContaining('--port') },
    ]);
  });

  it('reports unknown keys in the file with a suggestion', async () => {
    const files = { 'weir.yaml': 'data_dir: /x\nlog:\n  flushMS: 5\n  bogus: 1\n' };
    const errors = await errorsOf(load({ files, flags: { config: 'weir.yaml' } }));
    expect(errors.map((error) => error.key).sort()).toEqual(['data_dir', 'log.bogus', 'log.flushMS']);
    expect(errors.every((error) => error.source === 'file')).toBe(true);
    expect(errors.find((error) => error.key === 'data_dir')?.reason).toMatch(
      /unknown key.*did you mean dataDir/,
    );
    expect(errors.find((error) => error.key === 'log.flushMS')?.reason).toMatch(
      /line 3.*did you mean log\.flushMs/,
    );
  });

  it('reports an unknown WEIR_ variable naming the variable and the key it would set', async () => {
    const errors = await errorsOf(load({ env: { WEIR_LOG__FLUSH_MSS: '5' } }));
    expect(errors).toEqual([
      {
        key: 'log.flushMss',
        source: 'env',
        reason: expect.stringMatching(/WEIR_LOG__FLUSH_MSS.*did you mean WEIR_LOG__FLUSH_MS\?/),
      },
    ]);
  });

  it('reports a YAML syntax error naming the file and the line', async () => {
    const files = { 'conf/weir.yaml': 'nodeId: 1\nlog:\n  flushMs: [1, 2\n' };
    const errors = await errorsOf(load({ files, flags: { config: 'conf/weir.yaml' } }));
    expect(errors.length).toBeGreaterThan(0);
    expect(errors[0]).toEqual({
      key: 'config',
      source: 'file',
      reason: expect.stringMatching(/YAML syntax error in conf\/weir\.yaml at line \d+, column \d+/),
    });
    expect(errors[0]?.reason).toMatch(/line (3|4)/);
  });

  it('reports duplicate keys in the file as a syntax error', async () => {
    const files = { 'weir.yaml': 'nodeId: 1\nnodeId: 2\n' };
    const errors = await errorsOf(load({ files, flags: { config: 'weir.yaml' } }));
    expect(errors).toEqual([{ key: 'config', source: 'file', reason: expect.stringMatching(/line 2/) }]);
  });

  it('reports a file that is not a mapping', async () => {
    const files = { 'weir.yaml': '- nodeId: 1\n' };
    const errors = await errorsOf(load({ files, flags: { config: 'weir.yaml' } }));
    expect(errors).toEqual([{ key: 'config', source: 'file', reason: expect.stringContaining('mapping') }]);
  });

  it('reports a missing file under the source that named it', async () => {
    expect(await errorsOf(load({ flags: { config: 'missing.yaml' } }))).toEqual([
      { key: 'config', source: 'flag', reason: expect.stringMatching(/missing\.yaml.*ENOENT/) },
    ]);
    expect(await errorsOf(load({ env: { WEIR_CONFIG: 'missing.yaml' } }))).toEqual([
      { key: 'config', source: 'env', reason: expect.stringMatching(/missing\.yaml.*ENOENT/) },
    ]);
  });

  it('reports a --set without "=" and an unknown --set key', async () => {
    const errors = await errorsOf(load({ flags: { set: ['log.flushMs', '=5', 'log.flushMz=5'] } }));
    expect(errors).toEqual([
      { key: 'log.flushMs', source: 'flag', reason: expect.stringContaining('key.path=value') },
      { key: '(empty)', source: 'flag', reason: expect.stringContaining('key.path=value') },
      {
        key: 'log.flushMz',
        source: 'flag',
        reason: expect.stringMatching(/unknown key.*did you mean log\.flushMs/),
      },
    ]);
  });

  it('reports every problem of every layer at once', async () => {
    const files = { 'weir.yaml': 'nodeId: -1\n' };
    const errors = await errorsOf(
      load({
        files,
        flags: { config: 'weir.yaml', set: ['log.flushMs=0'] },
        env: { WEIR_NOPE: '1', WEIR_SHUTDOWN_TIMEOUT_MS: 'x' },
      }),
    );
    expect(errors.map((error) => `${error.key}/${error.source}`).sort()).toEqual([
      'log.flushMs/flag',
      'nodeId/file',
      'nope/env',
      'shutdownTimeoutMs/env',
    ]);
  });

  it('does not let __proto__ in the file change any prototype', async () => {
    const files = { 'weir.yaml': '__proto__:\n  polluted: true\n' };
    const errors = await errorsOf(load({ files, flags: { config: 'weir.yaml' } }));
    expect(errors.map((error) => error.key)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('cluster mode settings', () => {
  it('needs an explicit nodeId once etcd endpoints are set', async () => {
    const errors = await errorsOf(load({ env: { WEIR_CLUSTER__ETCD_ENDPOINTS: 'http://127.0.0.1:2379' } }));
    expect(errors).toEqual([
      expect.objectContaining({ key: 'nodeId', reason: expect.stringContaining('nodeId') }),
    ]);
  });

  it('takes a list of endpoints with a node id, and stays standalone without endpoints', async () => {
    const config = await configOf(
      load({
        env: {
          WEIR_CLUSTER__ETCD_ENDPOINTS: 'http://127.0.0.1:2379,http://127.0.0.2:2379',
          WEIR_NODE_ID: '2',
        },
      }),
    );
    expect(config.cluster.etcdEndpoints).toEqual(['http://127.0.0.1:2379', 'http://127.0.0.2:2379']);
    expect(config.nodeId).toBe(2);
    expect((await configOf(load())).cluster.etcdEndpoints).toEqual([]);
  });

  it("has Kafka's leader balance defaults, takes them from the environment, and names a bad one", async () => {
    expect((await configOf(load())).cluster).toMatchObject({
      autoLeaderRebalanceEnable: true,
      leaderImbalanceCheckIntervalSeconds: 300,
      leaderImbalancePerBrokerPercentage: 10,
    });
    const config = await configOf(
      load({
        env: {
          WEIR_CLUSTER__AUTO_LEADER_REBALANCE_ENABLE: 'false',
          WEIR_CLUSTER__LEADER_IMBALANCE_CHECK_INTERVAL_SECONDS: '1',
          WEIR_CLUSTER__LEADER_IMBALANCE_PER_BROKER_PERCENTAGE: '0',
        },
      }),
    );
    expect(config.cluster).toMatchObject({
      autoLeaderRebalanceEnable: false,
      leaderImbalanceCheckIntervalSeconds: 1,
      leaderImbalancePerBrokerPercentage: 0,
    });
    const errors = await errorsOf(
      load({
        env: {
          WEIR_CLUSTER__LEADER_IMBALANCE_CHECK_INTERVAL_SECONDS: '0',
          WEIR_CLUSTER__LEADER_IMBALANCE_PER_BROKER_PERCENTAGE: '101',
        },
      }),
    );
    expect(errors.map((error) => error.key).sort()).toEqual([
      'cluster.leaderImbalanceCheckIntervalSeconds',
      'cluster.leaderImbalancePerBrokerPercentage',
    ]);
  });

  it('refuses an endpoint that is not an http URL, naming the key', async () => {
    const errors = await errorsOf(
      load({ env: { WEIR_CLUSTER__ETCD_ENDPOINTS: 'etcd:2379', WEIR_NODE_ID: '1' } }),
    );
    expect(errors[0]?.key).toMatch(/^cluster\.etcdEndpoints/);
  });
});

describe("the other programs' WEIR_ variables", () => {
  it("leaves the console's and the client commands' variables to them", async () => {
    const config = await configOf(
      load({
        env: {
          WEIR_CONSOLE_AUTH: 'login',
          WEIR_CONSOLE_INTERNAL_TOKEN: 'not-the-broker-s',
          WEIR_CONSOLE_ALLOWED_HOSTS: 'console.example.com',
          WEIR_CLIENT_SASL_PASSWORD: 'secret',
          WEIR_CLIENT_SECURITY_PROTOCOL: 'SASL_SSL',
          WEIR_BOOTSTRAP_SERVER: '127.0.0.1:9092',
          WEIR_LOG__FLUSH_MS: '25',
        },
      }),
    );
    expect(config.log.flushMs).toBe(25);
  });

  it('still refuses a WEIR_ variable no program owns, a broker-style typo or a misspelt namespace', async () => {
    const errors = await errorsOf(
      load({ env: { WEIR_CONSOLE_AUTH: 'login', WEIR_BROKER_ID: '1', WEIR_CONSOL_AUTH: 'login' } }),
    );
    expect(errors.map((error) => error.reason)).toEqual([
      expect.stringMatching(/^unknown environment variable WEIR_BROKER_ID: no setting is called brokerId/),
      expect.stringMatching(
        /^unknown environment variable WEIR_CONSOL_AUTH: no setting is called consolAuth/,
      ),
    ]);
  });

  it("has no broker setting whose variable lies in another program's namespace", () => {
    const keys = listConfigKeys(brokerConfigSchema);
    expect(keys.length).toBeGreaterThan(50);
    expect(keys.filter((key) => isOtherProgramsVariable(key.envVar)).map((key) => key.envVar)).toEqual([]);
  });
});
