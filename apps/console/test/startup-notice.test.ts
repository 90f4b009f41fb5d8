import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { parseEnv } from '../src/env';
import { logStartupNotice } from '../src/server/startup-notice';

/** A logger whose JSON lines are kept for the test. */
function capturingLogger() {
  const lines: { level: number; msg: string; auth: string }[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString('utf8')));
      done();
    },
  });
  return { logger: pino({ level: 'info' }, stream), lines };
}

describe('start-up notice', () => {
  it('warns that a console without login acts with its full rights for anyone who reaches it', () => {
    const { logger, lines } = capturingLogger();
    logStartupNotice(parseEnv({}), logger);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 40, auth: 'none' });
    expect(lines[0]?.msg).toContain("everyone who can reach it acts with the console's full rights");
    expect(lines[0]?.msg).toContain('WEIR_CONSOLE_AUTH=login');
  });

  it('says nothing alarming in login mode', () => {
    const { logger, lines } = capturingLogger();
    logStartupNotice(parseEnv({ WEIR_CONSOLE_AUTH: 'login' }), logger);
    expect(lines).toEqual([expect.objectContaining({ level: 30, auth: 'login' })]);
  });
});
