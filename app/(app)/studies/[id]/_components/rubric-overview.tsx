import Link from 'next/link';
import { CombineRunsForm } from '@/components/judges/combine-runs-form';
import { recipeSentence } from '@/components/judges/recipe';
import type { JudgeRunDto } from '@/lib/server/analytics/dto';
import type { RubricGroundTruthSummaryDto } from '@/lib/server/ground-truth/dto';
import { combineRunsAction } from '../../actions';
import { Section, exportLink } from './section';

/** A rubric study's overview for its leads: where the items stand, the ground truth and its export, the judge runs. */
export function RubricOverview({ summary, studyId, runs }: { summary: RubricGroundTruthSummaryDto; studyId: number; runs: JudgeRunDto[] }) {
  return (
    <>
      <Section title="Ground truth">
        <p className="mb-3 text-sm text-slate-600" data-testid="rubric-gt-summary">
          <span data-testid="gt-complete">{summary.complete.toLocaleString('en-US')}</span> of {summary.items.toLocaleString('en-US')} items
          complete: {summary.labels.toLocaleString('en-US')} labels ({summary.adjudicated} adjudicated). {summary.incomplete} item(s) are
          not complete yet (a review or a ruling is missing) and are left out of the export. Each row carries every reviewer&apos;s label
          and the lenient label beside the strict one.
        </p>
        <div className="flex flex-wrap gap-3 text-sm">
          <Link href={`/studies/${studyId}/items`} className="rounded-md border border-slate-300 px-3 py-1.5">
            Items
          </Link>
          <Link href={`/studies/${studyId}/adjudicate`} className="rounded-md border border-slate-300 px-3 py-1.5">
            Adjudicate
          </Link>
          <a href={exportLink(studyId, 'ground-truth', 'jsonl')} className="rounded-md border border-slate-300 px-3 py-1.5" download>
            Ground truth (JSONL)
          </a>
          <a href={exportLink(studyId, 'ground-truth', 'csv')} className="rounded-md border border-slate-300 px-3 py-1.5" download>
            Ground truth (CSV)
          </a>
        </div>
      </Section>
      <Section title="Judge runs">
        {runs.length === 0 ? (
          <p className="mb-3 text-sm text-slate-500">No LLM-judge labels yet.</p>
        ) : (
          <table className="mb-4 w-full text-sm" data-testid="judge-runs">
            <thead className="text-left text-slate-500">
              <tr>
                <th className="py-1">Run</th>
                <th className="py-1 text-right">Labels</th>
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
        )}
        <CombineRunsForm studyId={studyId} runs={runs.map((r) => r.name)} kind="rubric" action={combineRunsAction} />
      </Section>
    </>
  );
}
