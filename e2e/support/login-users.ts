import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The users of the login-mode broker that serve-console.ts starts with `--login`. */
export const LOGIN_USERS = {
  /** The bootstrap admin, a super user. */
  admin: { username: 'admin', password: 'e2e-admin-secret-4f8a' },
  /** DESCRIBE and READ on every topic, nothing else. */
  reader: { username: 'reader', password: 'e2e-reader-secret-9d2e' },
} as const;

/** Where `serve-console.ts --login` writes the login-mode console's URL once it is ready. */
export const loginInfoPath = join(import.meta.dirname, '..', '.test-results', 'e2e-login.json');

export function loginConsoleUrl(): string {
  return (JSON.parse(readFileSync(loginInfoPath, 'utf8')) as { consoleUrl: string }).consoleUrl;
}
