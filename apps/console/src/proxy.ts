import { type NextRequest, NextResponse } from 'next/server';

/**
 * In login mode (WEIR_CONSOLE_AUTH=login), pages need a session: a request without the session
 * cookie goes to /login. Whether the cookie's session is still alive is decided by the layout and
 * the gateway (the sessions live in the server's memory); the API answers 401 itself. The path is
 * passed on in `x-weir-path`, so the layout can tell the login page from the others.
 */
export function proxy(request: NextRequest) {
  const path = request.nextUrl.pathname;
  const headers = new Headers(request.headers);
  headers.set('x-weir-path', path);
  if (
    process.env.WEIR_CONSOLE_AUTH === 'login' &&
    path !== '/login' &&
    request.cookies.get('weir_session') === undefined
  ) {
    const url = request.nextUrl.clone();
    url.pathname = '/login';
    url.search = '';
    return NextResponse.redirect(url);
  }
  return NextResponse.next({ request: { headers } });
}

export const config = {
  matcher: ['/((?!api/|_next/|icon.svg|favicon.ico).*)'],
};
