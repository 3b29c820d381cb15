import Link from 'next/link';
import { compareJudgeRuns } from '@/lib/server/judges/compare';
import { listJudgeTemplates, listStudyJudgeRuns } from '@/lib/server/judges/judges';
import { SHIPPED_TEMPLATES } from '@/lib/validation/judge-templates';
import { analyticsContext, type SearchParams } from '../analytics/_lib/context';
import { JudgeRunsPanel } from './_components/judge-runs-panel';
import { RunComparison } from './_components/run-comparison';

export const dynamic = 'force-dynamic';

/** Judge runs of a study (leads and admins): launch one against an endpoint, watch it, compare runs. */
export default async function JudgeRunsPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: SearchParams }) {
  const { actor, studyId, study } = await analyticsContext((await params).id);
  const sp = await searchParams;
  const compare = ([] as string[]).concat(sp.compare ?? []).filter(Boolean);
  const runs = listStudyJudgeRuns(actor, studyId);
  const templates = listJudgeTemplates(actor, studyId);
  const comparison = compare.length && study.kind === 'pairwise' ? compareJudgeRuns(actor, studyId, compare) : null;
  const shipped = Object.values(SHIPPED_TEMPLATES).map((t) => ({ name: t.name, body: JSON.stringify(t, null, 2) }));
  return (
    <div className="space-y-6">
      <div>
        <p className="text-sm">
          <Link href={`/studies/${studyId}`} className="text-accent-700 hover:underline">
            ← Back to {study.name}
          </Link>
        </p>
        <h1 className="mt-1 text-2xl font-semibold">Judge runs</h1>
        <p className="text-sm text-slate-600">
          Run an LLM judge on this study through any OpenAI-compatible endpoint, or compare runs. Verdicts appear in the dashboards as they arrive.
        </p>
      </div>
      {study.kind === 'flow_review' ? (
        <p className="text-sm text-slate-600">Judges can be run from Concord on pairwise and rubric studies.</p>
      ) : (
        <JudgeRunsPanel
          studyId={studyId}
          initialRuns={runs}
          templates={templates.map((t) => ({ name: t.name, version: t.version, body: JSON.stringify(JSON.parse(t.body), null, 2) }))}
          shipped={shipped}
        />
      )}
      {comparison && <RunComparison comparison={comparison} />}
      {compare.length > 0 && study.kind === 'rubric' && (
        <p className="text-sm text-slate-600">Runs of a rubric study are compared once its rubric reports (macro-F1 strict and lenient) exist.</p>
      )}
    </div>
  );
}
