import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const brokerDir = new URL('../..', import.meta.url).pathname;

/** The parent's environment without WEIR_* variables, which would change the configuration. */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('WEIR_')));
  return { ...env, ...extra };
}

/** Runs the real `weir` binary as a user would, through bin/weir.js. */
function weir(args: string[], env = cleanEnv()): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['bin/weir.js', ...args], { cwd: brokerDir, env }, (error, stdout, stderr) => {
      const code = error && typeof error.code === 'number' ? error.code : error ? -1 : 0;
      resolve({ code, stdout, stderr });
    });
  });
}

describe('weir binary', () => {
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'weir-cli-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('prints the effective configuration as YAML', async () => {
    const result = await weir(['config', 'print', '--set', 'log.flushMs=5']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const printed = parse(result.stdout);
    expect(printed.log.flushMs).toBe(5);
    expect(printed.dataDir).toBe('./data');
    expect(printed.listeners.client).toEqual({
      host: '127.0.0.1',
      port: 9092,
      securityProtocol: 'PLAINTEXT',
      saslMechanisms: ['PLAIN', 'SCRAM-SHA-256', 'SCRAM-SHA-512'],
    });
    expect(printed.shutdownTimeoutMs).toBe(30000);
  });

  it('combines a file, the environment and flags', async () => {
    const file = join(dir, 'weir.yaml');
    await writeFile(file, 'dataDir: /srv/weir\nnodeId: 4\nlog:\n  flushMs: 7\n');
    const result = await weir(
      ['config', 'print', '--port', '19092'],
      cleanEnv({ WEIR_CONFIG: file, WEIR_NODE_ID: '5' }),
    );
    expect(result.code).toBe(0);
    const printed = parse(result.stdout);
    expect(printed).toMatchObject({ dataDir: '/srv/weir', nodeId: 5, log: { flushMs: 7 } });
    expect(printed.listeners.client.port).toBe(19092);
  });

  it('exits 2 naming the key when a value is bad, and prints nothing on stdout', async () => {
    const result = await weir(['config', 'print', '--set', 'log.flushMs=soon']);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^log\.flushMs: .*expected number.*\(from flag\)$/m);
  });

  it('exits 2 naming the file and line of a YAML syntax error', async () => {
    const file = join(dir, 'broken.yaml');
    await writeFile(file, 'nodeId: 1\nlog: [\n');
    const result = await weir(['config', 'print', '--config', file]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`config: YAML syntax error in ${file} at line`);
  });

  it('exits 2 for an unknown WEIR_ variable and for an unknown command', async () => {
    const unknownVar = await weir(['config', 'print'], cleanEnv({ WEIR_DATADIR: '/x' }));
    expect(unknownVar.code).toBe(2);
    expect(unknownVar.stderr).toMatch(/WEIR_DATADIR.*did you mean WEIR_DATA_DIR/);
    const unknownCommand = await weir(['config', 'show']);
    expect(unknownCommand.code).toBe(2);
  });
});
