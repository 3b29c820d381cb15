import 'server-only';
import NextAuth, { CredentialsSignin } from 'next-auth';
import Credentials from 'next-auth/providers/credentials';
import { authSecret } from '@/lib/env';
import { clientAddress } from './client-address';
import { DomainError } from '@/lib/server/errors';
import { endSessions, verifyCredentials } from '@/lib/server/accounts/users';
import { signInSchema } from '@/lib/validation/accounts';

/** A locked account or address; carries how long the lock lasts, so the sign-in page can say how long to wait. */
export class ThrottledSignIn extends CredentialsSignin {
  code = 'throttled';
  constructor(readonly retryAfterSeconds: number | null) {
    super();
  }
}

/** The seconds in the use-case's "Try again in N s." (its only structured part is the message). */
const secondsIn = (message: string) => {
  const m = /in (\d+) s\b/.exec(message);
  return m ? Number(m[1]) : null;
};

declare module 'next-auth' {
  interface Session {
    uid: number;
    sv: number;
  }
}

export const { handlers, auth, signIn, signOut } = NextAuth({
  secret: authSecret(),
  trustHost: true,
  // JWT sessions, no adapter: Concord keeps its own users table and re-checks it on every guarded call.
  session: { strategy: 'jwt', maxAge: 12 * 60 * 60 },
  pages: { signIn: '/sign-in' },
  logger: {
    // A wrong password is an expected outcome, already counted and audited: no stack trace in the server log.
    error(error) {
      if (error instanceof CredentialsSignin || (error as { type?: string }).type === 'CredentialsSignin') return;
      console.error(error);
    },
  },
  providers: [
    Credentials({
      credentials: { username: { label: 'Username' }, password: { label: 'Password', type: 'password' } },
      async authorize(raw, request) {
        const parsed = signInSchema.safeParse(raw);
        if (!parsed.success) return null;
        try {
          const user = await verifyCredentials(parsed.data.username, parsed.data.password, new Date(), clientAddress(request.headers));
          return user ? { id: String(user.id), name: user.name, sessionVersion: user.sessionVersion } : null;
        } catch (e) {
          if (e instanceof DomainError && e.code === 'throttled') throw new ThrottledSignIn(secondsIn(e.message));
          throw e;
        }
      },
    }),
  ],
  events: {
    // Runs for the sign-out button and Auth.js's own sign-out endpoint alike, with the token being cleared.
    signOut(message) {
      const token = 'token' in message ? message.token : null;
      const uid = Number(token?.uid);
      const sv = Number(token?.sv);
      if (Number.isInteger(uid) && Number.isInteger(sv)) endSessions(uid, sv);
    },
  },
  callbacks: {
    jwt({ token, user }) {
      if (user) {
        token.uid = Number(user.id);
        token.sv = (user as { sessionVersion?: number }).sessionVersion ?? 0;
      }
      return token;
    },
    session({ session, token }) {
      session.uid = Number(token.uid);
      session.sv = Number(token.sv);
      return session;
    },
  },
});
