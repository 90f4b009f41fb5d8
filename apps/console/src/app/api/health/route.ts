// A liveness probe for the console process. It says nothing about the broker: a console that is
// up but cannot reach its broker must still answer here, and report the broker on its pages.
export const dynamic = 'force-dynamic';

export function GET(): Response {
  return Response.json(
    { status: 'ok', service: 'weir-console' },
    { headers: { 'cache-control': 'no-store' } },
  );
}
