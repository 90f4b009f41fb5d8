import { openApiDocument } from '../../../server/api/openapi';

export const dynamic = 'force-dynamic';

export function GET(): Response {
  return Response.json(openApiDocument(), { headers: { 'cache-control': 'no-store' } });
}
