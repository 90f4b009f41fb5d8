import { handleTrpcRequest } from '../../../../server/api/http';
import { processConsoleAuth } from '../../../../server/auth/process-auth';
import { processGatewayServices } from '../../../../server/gateway-services';

// Broker state is read per request; nothing here may be cached or prerendered.
export const dynamic = 'force-dynamic';

function handler(request: Request): Promise<Response> {
  return handleTrpcRequest(request, processGatewayServices(), processConsoleAuth());
}

export { handler as GET, handler as POST };
