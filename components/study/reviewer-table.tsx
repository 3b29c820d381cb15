import { money } from '@/components/study/section';

export type ReviewerRow = {
  username: string;
  displayName: string;
  /** The reviewer's set, where the study deals items out by sets (pairwise); absent: no Set column. */
  set?: number | null;
  assigned: number;
  submitted: number;
  activeSeconds: number;
  payout: number;
};

/** Who reviews the study, how far each is, their active time and what they are owed: the same table for every kind. */
export function ReviewerTable({ reviewers }: { reviewers: readonly ReviewerRow[] }) {
  const sets = reviewers.some((r) => r.set !== undefined);
  if (reviewers.length === 0) return <p className="text-sm text-slate-500">No one is assigned items yet.</p>;
  return (
    <table className="w-full text-sm" data-testid="reviewer-table">
      <thead className="text-left text-slate-500">
        <tr>
          <th className="py-1">Reviewer</th>
          {sets && <th className="py-1">Set</th>}
          <th className="py-1 text-right">Done</th>
          <th className="py-1 text-right">Active h</th>
          <th className="py-1 text-right">Payout</th>
        </tr>
      </thead>
      <tbody>
        {reviewers.map((r) => (
          <tr key={r.username} className="border-t border-slate-100">
            <td className="py-1">{r.displayName}</td>
            {sets && <td className="py-1">{r.set ?? '–'}</td>}
            <td className="py-1 text-right tabular-nums">
              {r.submitted} / {r.assigned}
            </td>
            <td className="py-1 text-right tabular-nums">{(r.activeSeconds / 3600).toFixed(2)}</td>
            <td className="py-1 text-right tabular-nums">{money(r.payout)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
