import { NextResponse, type NextRequest } from 'next/server';
import { SESSION_COOKIES } from '@/lib/auth/cookies';

// A first gate only: it sends visitors without a session cookie to sign in. Every page, action and route
// still checks the session and the caller's rights itself.
export function proxy(request: NextRequest) {
  const hasSession = SESSION_COOKIES.some((name) => request.cookies.has(name));
  if (hasSession) return NextResponse.next();
  if (request.nextUrl.pathname.startsWith('/api/')) {
    return NextResponse.json({ ok: false, error: 'Please sign in.' }, { status: 401 });
  }
  const url = new URL('/sign-in', request.url);
  url.searchParams.set('next', request.nextUrl.pathname + request.nextUrl.search);
  return NextResponse.redirect(url);
}

// Uploads (`/api/studies/:id/import`, `/api/studies/:id/judge`) bypass the proxy: Next buffers the body of every
// request the proxy sees and cuts it at 10 MB (`proxyClientMaxBodySize`), so a larger file reached its route
// truncated. Their routes check the session themselves, as every route does.
export const config = {
  matcher: [
    '/((?!sign-in|api/auth|api/health|api/studies/[0-9]+/import$|api/studies/[0-9]+/judge$|_next/static|_next/image|favicon.ico|icon.svg).*)',
  ],
};
