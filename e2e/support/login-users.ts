import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The users of the login-mode broker that serve-console.ts starts with `--login`. */
export const LOGIN_USERS = {
  /** The bootstrap admin, a super user. */
  admin: { username: 'admin', password: 'e2e-admin-secret-4f8a' },
  /** DESCRIBE and READ on every topic, nothing else. */
  reader: { username: 'reader', password: 'e2e-reader-secret-9d2e' },
} as const;

/**
 * The users `serve-console.ts --open-acls` adds to its broker, which allows everyone where no ACL
 * is found (the admin is LOGIN_USERS.admin there too).
 */
export const OPEN_ACL_USERS = {
  alice: { username: 'alice', password: 'e2e-alice-secret-61b0' },
  bob: { username: 'bob', password: 'e2e-bob-secret-0c93' },
} as const;

/** Where `serve-console.ts --login` writes the login-mode console's URL once it is ready. */
export const loginInfoPath = join(import.meta.dirname, '..', '.test-results', 'e2e-login.json');

export function loginConsoleUrl(): string {
  return (JSON.parse(readFileSync(loginInfoPath, 'utf8')) as { consoleUrl: string }).consoleUrl;
}
