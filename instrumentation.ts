// Runs once when the server starts: the database is opened and migrated before any request is served.
export async function register() {
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    const { openOrExit } = await import('./db/startup');
    openOrExit();
  }
}
