/**
 * The security headers of every page and answer: set by Next for what it serves (`next.config.ts`) and by the
 * direct routes for what they answer before Next (`lib/auth/direct-routes.ts`), from this one list.
 *
 * The Content-Security-Policy is static, so pages stay cacheable and the proxy untouched: Next's App Router inlines
 * its bootstrap and page data as scripts, which a static policy can only allow with 'unsafe-inline' (nonces would
 * make every page dynamic; see docs/decisions/0006). Scripts, styles, fonts (KaTeX's among them) and requests stay
 * on this origin; nothing may frame a page, so the judging screen cannot be overlaid.
 */
const contentSecurityPolicy = [
  "default-src 'self'",
  // React needs eval only in development, for its debugging information.
  `script-src 'self' 'unsafe-inline'${process.env.NODE_ENV === 'production' ? '' : " 'unsafe-eval'"}`,
  // KaTeX and the charts position with style attributes.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

export const securityHeaders: { key: string; value: string }[] = [
  { key: 'Content-Security-Policy', value: contentSecurityPolicy },
  // For browsers that predate frame-ancestors.
  { key: 'X-Frame-Options', value: 'DENY' },
  { key: 'X-Content-Type-Options', value: 'nosniff' },
  // Study and item URLs are nobody else's business.
  { key: 'Referrer-Policy', value: 'same-origin' },
];
