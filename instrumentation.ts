// Runs once when the server starts: the database is opened and migrated before any request is served.
export async function register() {
  if (process.env.NEXT_RUNTIME === 'nodejs') {
    const { openConcord } = await import('./lib/server/system/startup');
    try {
      openConcord({ server: true });
    } catch (e) {
      // A failed migration ends the process instead of serving on a schema the code does not expect.
      console.error('Concord: the database could not be opened or migrated; refusing to start.', e);
      process.exit(1);
    }
    // Scheduled, verified backups (CONCORD_BACKUP_EVERY), written by a child process while people work.
    const { startBackupSchedule } = await import('./lib/server/system/backup-schedule');
    startBackupSchedule();
    // The review screens' per-item requests are answered before Next sees them (decision 0051). Installed first, so
    // that the two hooks below still run before it.
    const { installDirectRoutes } = await import('./lib/auth/direct-routes');
    const { assignmentDirectRoutes } = await import('./app/api/assignments/direct');
    installDirectRoutes(assignmentDirectRoutes);
    // Before the first request: sign-in throttling needs the socket's address, which a client cannot forge.
    const { installPeerAddressHeader } = await import('./lib/auth/peer-address');
    installPeerAddressHeader();
    // Long uploads (a 500 MB import on a slow link) must not be cut off after Node's default 5 minutes.
    const { lengthenRequestTimeout } = await import('./lib/server/system/request-timeout');
    lengthenRequestTimeout();
  }
}
