/** The session cookie Auth.js sets: `__Secure-` prefixed over HTTPS, plain over HTTP. Shared by the proxy, the guards and the direct routes. */
export const SESSION_COOKIES = ['__Secure-authjs.session-token', 'authjs.session-token'] as const;

/** Whether a request carries a session cookie at all: the proxy's first gate, which the direct routes apply too. */
export const hasSessionCookie = (has: (name: string) => boolean) => SESSION_COOKIES.some(has);

/** The answer of an API request without a session cookie. */
export const SIGN_IN_FIRST = 'Please sign in.';
