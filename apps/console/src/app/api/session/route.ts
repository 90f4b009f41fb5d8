import { processConsoleAuth } from '../../../server/auth/process-auth';
import { handleBrowserSession } from '../../../server/auth/session-routes';
import { refuseCrossSiteMutation } from '../../../server/security/cross-site-mutations';

export const dynamic = 'force-dynamic';

// A login or logout from another site's page is refused before the session code sees it.
async function handler(request: Request): Promise<Response> {
  const auth = processConsoleAuth();
  return refuseCrossSiteMutation(request, auth.mode) ?? handleBrowserSession(request, auth);
}

export { handler as DELETE, handler as GET, handler as POST };
