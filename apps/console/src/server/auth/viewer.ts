import 'server-only';
import { cookies } from 'next/headers';
import { processConsoleAuth } from './process-auth';
import { SESSION_COOKIE } from './sessions';

/** Who is looking at a page: the mode, and in login mode the logged-in user (null when nobody). */
export interface Viewer {
  readonly mode: 'none' | 'login';
  readonly username: string | null;
}

export async function currentViewer(): Promise<Viewer> {
  const auth = processConsoleAuth();
  if (auth.mode === 'none') return { mode: 'none', username: null };
  // A session the broker cannot confirm now (unreachable) still shows its user; its requests fail.
  const { session } = await auth.resume((await cookies()).get(SESSION_COOKIE)?.value);
  return { mode: 'login', username: session?.username ?? null };
}
