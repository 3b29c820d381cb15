import type { BackupStatusDto } from '@/lib/server/system/dto';
import { BackUpNowButton } from './back-up-now';

const when = (iso: string) => `${iso.slice(0, 19).replace('T', ' ')} UTC`;
const size = (bytes: number) => `${(bytes / 1e6).toLocaleString('en-US', { maximumFractionDigits: 1 })} MB`;

/** The backup schedule and the newest good backup, for admins (README "Backups and restore"). */
export function BackupStatus({ status }: { status: BackupStatusDto }) {
  const { newest, last } = status;
  return (
    <section className="space-y-1 rounded border p-4 text-sm" data-testid="backup-status" aria-labelledby="backups-heading">
      <h2 id="backups-heading" className="text-lg font-semibold">
        Backups
      </h2>
      {status.scheduled ? (
        <p>
          A verified backup every {status.every} into <code>{status.dir}</code>; the newest {status.keep} are kept.
          {status.running ? ' A backup is being written now.' : status.nextAt ? ` Next: ${when(status.nextAt)}.` : ''}
        </p>
      ) : (
        <p>
          No backups are scheduled. Set CONCORD_BACKUP_EVERY (for example 6h) to have the server write them; &ldquo;Back up now&rdquo;
          writes one into <code>{status.dir}</code>.
        </p>
      )}
      {newest ? (
        <p data-testid="newest-backup">
          Newest good backup: {when(newest.at)}, <code>{newest.file}</code>, {size(newest.bytes)}.
        </p>
      ) : status.scheduled ? (
        <p>No good backup yet.</p>
      ) : null}
      {last && !last.ok ? (
        <p role="alert" className="text-red-700">
          The backup of {when(last.at)} failed: {last.error}
        </p>
      ) : null}
      <BackUpNowButton />
    </section>
  );
}
