import { randomBytes } from 'node:crypto';
import { open, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';

/** Where a generated internal listener token is kept, inside the data directory. */
export const INTERNAL_TOKEN_FILE_NAME = 'internal-listener.token';

/** The shortest token accepted, as in the configuration schema. */
const MIN_TOKEN_CHARS = 16;
const GENERATED_TOKEN_BYTES = 32;
/** Owner read and write only: the token lets its holder administer the broker. */
const TOKEN_FILE_MODE = 0o600;

export interface InternalTokenFile {
  readonly token: string;
  readonly path: string;
  /** True when this call generated the token (first start on this data directory). */
  readonly created: boolean;
  /** True when group or others may read the file, which deserves a warning. */
  readonly readableByOthers: boolean;
}

/**
 * The internal listener's token when none is configured: read from the data directory, or on first
 * start generated (32 random bytes, hex) and written there with mode 0600, so the console and
 * scripts on the same machine can read it and it stays the same across restarts. Errors never
 * contain the token.
 */
export async function loadOrCreateInternalToken(dataDir: string): Promise<InternalTokenFile> {
  const path = join(dataDir, INTERNAL_TOKEN_FILE_NAME);
  const existing = await readToken(path);
  if (existing !== undefined) return existing;
  const token = randomBytes(GENERATED_TOKEN_BYTES).toString('hex');
  try {
    // 'wx' fails if the file appeared meanwhile, so two starts never end up with different tokens.
    const handle = await open(path, 'wx', TOKEN_FILE_MODE);
    try {
      await handle.writeFile(`${token}\n`, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    const raced = await readToken(path);
    if (raced !== undefined) return raced;
    throw error;
  }
  return { token, path, created: true, readableByOthers: false };
}

async function readToken(path: string): Promise<InternalTokenFile | undefined> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const token = text.trim();
  if (token.length < MIN_TOKEN_CHARS) {
    throw new Error(
      `${path} does not hold a token of at least ${MIN_TOKEN_CHARS} characters; ` +
        'delete it to have a new one generated, or set listeners.internal.token',
    );
  }
  const { mode } = await stat(path);
  return { token, path, created: false, readableByOthers: (mode & 0o077) !== 0 };
}
