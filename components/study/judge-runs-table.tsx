import type { JudgeRunDto } from '@/lib/server/analytics/dto';
import { recipeSentence } from '@/components/judges/recipe';

/** The judge runs of a study on its page: each run, what it holds, and how a combined one was made. */
export function JudgeRunsTable({ runs, countLabel }: { runs: readonly JudgeRunDto[]; countLabel: string }) {
  if (runs.length === 0) return <p className="mb-3 text-sm text-slate-500">No LLM-judge labels yet.</p>;
  return (
    <table className="mb-4 w-full text-sm" data-testid="judge-runs">
      <thead className="text-left text-slate-500">
        <tr>
          <th className="py-1">Run</th>
          <th className="py-1 text-right">{countLabel}</th>
          <th className="py-1 text-right">Unreadable</th>
          <th className="py-1 pl-6">Created</th>
        </tr>
      </thead>
      <tbody>
        {runs.map((r) => (
          <tr key={r.name} className="border-t border-slate-100" data-testid="judge-run-row">
            <td className="py-1">
              <span className="font-mono">{r.name}</span>
              {r.recipe ? (
                <span className="block text-xs text-slate-500" data-testid="judge-run-recipe">
                  {recipeSentence(r.recipe)}
                </span>
              ) : null}
            </td>
            <td className="py-1 text-right tabular-nums">{r.labels.toLocaleString('en-US')}</td>
            <td className="py-1 text-right tabular-nums">{r.unparsed}</td>
            <td className="py-1 pl-6">{r.createdAt.slice(0, 10)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
