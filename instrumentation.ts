// Runs once when the server starts: the database is opened and migrated before any request is served.
export async function register() {
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    const { openOrExit } = await import('./db/startup');
    openOrExit();
    // Before the first request: sign-in throttling needs the socket's address, which a client cannot forge.
    const { installPeerAddressHeader } = await import('./lib/auth/peer-address');
    installPeerAddressHeader();
  }
}
