/** The session cookie Auth.js sets: `__Secure-` prefixed over HTTPS, plain over HTTP. Shared by the proxy and the guards. */
export const SESSION_COOKIES = ['__Secure-authjs.session-token', 'authjs.session-token'] as const;
