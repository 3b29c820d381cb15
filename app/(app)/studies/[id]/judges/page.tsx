import { Link } from '@/components/ui/link';
import { compareStudyJudgeRuns } from '@/lib/server/judges/compare';
import { judgeEndpointChoices } from '@/lib/server/judges/endpoints';
import { canGrade } from '@/lib/server/judges/graded-kinds';
import { listJudgeTemplates, listStudyJudgeRuns } from '@/lib/server/judges/judges';
import { judgeRulesOf } from '@/lib/kinds/judge-rules';
import { STUDY_KINDS } from '@/lib/validation/labels';
import { SHIPPED_TEMPLATES } from '@/lib/validation/judge-templates';
import { analyticsContext, type SearchParams } from '../analytics/_lib/context';
import { JudgeRunsPanel } from './_components/judge-runs-panel';
import { RubricRunComparison, RunComparison } from './_components/run-comparison';

export const dynamic = 'force-dynamic';

const judgeKinds = STUDY_KINDS.filter((k) => judgeRulesOf(k));

/** Judge runs of a study (leads and admins): launch one against an endpoint, watch it, compare runs. */
export default async function JudgeRunsPage({ params, searchParams }: { params: Promise<{ id: string }>; searchParams: SearchParams }) {
  const { actor, studyId, study } = await analyticsContext((await params).id);
  const sp = await searchParams;
  const compare = ([] as string[]).concat(sp.compare ?? []).filter(Boolean);
  const runs = listStudyJudgeRuns(actor, studyId);
  const templates = listJudgeTemplates(actor, studyId);
  // The comparisons differ in shape (pairwise: per criterion and order; rubric: per dimension, one sample at a
  // time), so each has its own screen; the kind says which (its judges facet's `grading`).
  const sample = Number(([] as string[]).concat(sp.sample ?? [])[0] ?? 1);
  const compared =
    compare.length && judgeRulesOf(study.kind)
      ? compareStudyJudgeRuns(actor, studyId, compare, Number.isInteger(sample) && sample >= 1 ? sample : 1)
      : null;
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
          Run an LLM judge on this study through an endpoint an admin configured, or compare runs. Verdicts appear in the dashboards as they
          arrive.
        </p>
      </div>
      {!judgeRulesOf(study.kind) ? (
        <p className="text-sm text-slate-600">Judges can be run from Concord on {judgeKinds.join(' and ')} studies.</p>
      ) : (
        <JudgeRunsPanel
          studyId={studyId}
          kind={study.kind}
          initialRuns={runs}
          templates={templates.map((t) => ({ name: t.name, version: t.version, body: JSON.stringify(JSON.parse(t.body), null, 2) }))}
          shipped={shipped}
          endpoints={judgeEndpointChoices(actor)}
          examples={canGrade(study)}
          comparisonKey={compare.length ? `${compare.join('|')}#${sample}` : undefined}
          comparison={
            compared?.kind === 'criteria' ? (
              <RunComparison comparison={compared.comparison} />
            ) : compared?.kind === 'dimensions' ? (
              <RubricRunComparison comparison={compared.comparison} studyId={studyId} />
            ) : null
          }
        />
      )}
    </div>
  );
}
