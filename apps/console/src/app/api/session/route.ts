import { processConsoleAuth } from '../../../server/auth/process-auth';
import { handleBrowserSession } from '../../../server/auth/session-routes';

export const dynamic = 'force-dynamic';

function handler(request: Request): Promise<Response> {
  return handleBrowserSession(request, processConsoleAuth());
}

export { handler as DELETE, handler as GET, handler as POST };
