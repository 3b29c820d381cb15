import type { ItemRemarksDto } from '@/lib/server/studies/dto';

/** One reviewer's flag (with its reason and time) and comment on the item, for its leads; nothing when neither. */
export function ReviewerRemarks({ username, remarks }: { username: string; remarks: ItemRemarksDto }) {
  if (remarks.flagReason === null && remarks.comment === null) return null;
  return (
    <div className="mt-1 space-y-0.5" data-testid={`remarks-${username}`}>
      {remarks.flagReason !== null ? (
        <p className="text-amber-800">
          Flagged{remarks.flaggedAt ? ` ${remarks.flaggedAt.replace('T', ' ').slice(0, 16)} UTC` : ''}: {remarks.flagReason}
        </p>
      ) : null}
      {remarks.comment !== null ? <p className="text-slate-700">Comment: {remarks.comment}</p> : null}
    </div>
  );
}
