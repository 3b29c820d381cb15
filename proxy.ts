import { NextResponse, type NextRequest } from 'next/server';
import { SIGN_IN_FIRST, hasSessionCookie } from '@/lib/auth/cookies';

// A first gate only: it sends visitors without a session cookie to sign in. Every page, action and route
// still checks the session and the caller's rights itself.
export function proxy(request: NextRequest) {
  if (hasSessionCookie((name) => request.cookies.has(name))) return NextResponse.next();
  if (request.nextUrl.pathname.startsWith('/api/')) {
    return NextResponse.json({ ok: false, error: SIGN_IN_FIRST }, { status: 401 });
  }
  const url = new URL('/sign-in', request.url);
  url.searchParams.set('next', request.nextUrl.pathname + request.nextUrl.search);
  return NextResponse.redirect(url);
}

// Next copies the body of every request the proxy matches and keeps only its first 10 MB (in memory), so an
// upload seen by the proxy reaches its route cut short. The upload routes (`/api/studies/<id>/import` and
// `/api/studies/<id>/judge`) are therefore not matched; `route()` signs their callers in as for every route.
// The HTTP API (`/api/v1/…`) carries a bearer token, not a cookie, and takes streamed uploads: `apiRoute()` checks
// the token on every call. Its OpenAPI document and the page that shows it (`/docs/api`) are public.
export const config = {
  matcher: [
    '/((?!sign-in|api/auth|api/health|api/studies/[^/]+/(?:import|judge)$|api/v1/|api/openapi\\.json$|docs/api$|_next/static|_next/image|favicon.ico|icon.svg).*)',
  ],
};
