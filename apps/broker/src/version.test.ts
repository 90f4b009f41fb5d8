import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { WEIR_VERSION } from './version';

describe('WEIR_VERSION', () => {
  it('is the version in the broker package.json', () => {
    const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      version: string;
    };
    expect(WEIR_VERSION).toBe(manifest.version);
  });
});
