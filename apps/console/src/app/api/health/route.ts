import { processConsoleAuthParts } from '../../../server/auth/process-auth';
import { consoleHealth } from '../../../server/console-health';

// The console's health: always answered (a console that is up but cannot reach its broker still
// answers here, and reports the broker on its pages), with whether the broker accepts the
// console's own credentials (see consoleHealth).
export const dynamic = 'force-dynamic';

export async function GET(): Promise<Response> {
  const headers = { 'cache-control': 'no-store' };
  let parts: ReturnType<typeof processConsoleAuthParts>;
  try {
    parts = processConsoleAuthParts();
  } catch (error) {
    // A configuration the console cannot start its broker clients with (it names the variable).
    return Response.json(
      { status: 'degraded', service: 'weir-console', configuration: (error as Error).message },
      { headers },
    );
  }
  return Response.json(await consoleHealth({ ...parts, now: Date.now }), { headers });
}
