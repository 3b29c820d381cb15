import type { FlowItem, Material } from '@/lib/validation/flow';
import type { FlowWarning } from '@/lib/validation/flow-warnings';
import { RichText } from '@/components/ui/rich-text';
import { Chip } from '@/components/ui/chip';

const MATERIAL_TITLES: Record<Material['kind'], string> = {
  follow_up: 'Follow-up problem',
  error_analysis: 'Error analysis',
  similar_problem: 'Similar problem',
  clarification: 'Clarification',
};

function MaterialBody({ m }: { m: Material }) {
  switch (m.kind) {
    case 'follow_up':
    case 'similar_problem':
      return (
        <>
          {m.kind === 'similar_problem' && m.difficulty && <p className="text-xs text-slate-500">Difficulty: {m.difficulty}</p>}
          <RichText text={m.text} />
          {m.solution && (
            <details className="mt-1 text-sm">
              <summary className="cursor-pointer text-slate-600">Solution</summary>
              <RichText text={m.solution} />
            </details>
          )}
        </>
      );
    case 'error_analysis':
      return (
        <>
          <p className="text-xs font-medium text-slate-500">
            Student&apos;s solution{m.first_error_step ? ` (first error in step ${m.first_error_step})` : ''}
          </p>
          <RichText text={m.student_solution} />
          {m.feedback && (
            <>
              <p className="mt-2 text-xs font-medium text-slate-500">Feedback</p>
              <RichText text={m.feedback} />
            </>
          )}
        </>
      );
    case 'clarification':
      return (
        <ul className="space-y-1">
          {m.turns.map((t, i) => (
            <li key={i}>
              <span className="text-xs font-medium uppercase text-slate-500">{t.role}: </span>
              <RichText text={t.text} inline />
            </li>
          ))}
        </ul>
      );
  }
}

/** The left column of a flow: problem, solution, session brief and the materials steps may use. */
export function FlowContext({ flow }: { flow: FlowItem }) {
  return (
    <div className="space-y-4">
      <section aria-labelledby="problem-heading" className="rounded-lg border border-slate-200 bg-white p-4">
        <h2 id="problem-heading" className="text-sm font-semibold uppercase tracking-wide text-slate-500">
          Problem
          {flow.problem.grade && <span className="ml-2 font-normal normal-case">grade {flow.problem.grade}</span>}
          {flow.problem.domain && <span className="ml-2 font-normal normal-case">· {flow.problem.domain}</span>}
        </h2>
        <RichText text={flow.problem.text} />
        {flow.problem.answer && (
          <p className="mt-2 text-sm">
            <span className="font-medium">Answer:</span> <RichText text={flow.problem.answer} inline />
          </p>
        )}
        {flow.problem.solution && (
          <details className="mt-2 text-sm" open>
            <summary className="cursor-pointer font-medium text-slate-700">Reference solution</summary>
            <RichText text={flow.problem.solution} />
          </details>
        )}
      </section>
      {(flow.tutor_persona || flow.student_profile || flow.learning_objectives?.length) && (
        <section className="rounded-lg border border-slate-200 bg-white p-4 text-sm">
          {flow.tutor_persona && (
            <p>
              <span className="font-medium">Tutor:</span> {flow.tutor_persona}
            </p>
          )}
          {flow.student_profile && (
            <p className="mt-1">
              <span className="font-medium">Student:</span> {flow.student_profile}
            </p>
          )}
          {!!flow.learning_objectives?.length && (
            <ul className="mt-1 list-disc pl-5">
              {flow.learning_objectives.map((o, i) => (
                <li key={i}>{o}</li>
              ))}
            </ul>
          )}
        </section>
      )}
      {!!flow.materials?.length && (
        <section aria-labelledby="materials-heading" className="space-y-2">
          <h2 id="materials-heading" className="text-sm font-semibold uppercase tracking-wide text-slate-500">
            Materials
          </h2>
          {flow.materials.map((m) => (
            <div key={m.id} id={`material-${m.id}`} className="scroll-mt-20 rounded-lg border border-slate-200 bg-white p-3 text-sm">
              <p className="mb-1 font-medium">
                <span className="mr-2 rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs">{m.id}</span>
                {MATERIAL_TITLES[m.kind]}
              </p>
              <MaterialBody m={m} />
            </div>
          ))}
        </section>
      )}
    </div>
  );
}

type StepsProps = {
  flow: FlowItem;
  warnings: FlowWarning[];
  focus: number;
  /** Steps after this one are shown as cut. */
  cutAfter: number | null;
  onFocus?: (index: number) => void;
};

/** The numbered plan: speaker, text, principle chips, material links and inline warnings. */
export function FlowSteps({ flow, warnings, focus, cutAfter, onFocus }: StepsProps) {
  const provided = new Set((flow.materials ?? []).map((m) => m.id));
  return (
    <ol className="space-y-2" aria-label="Steps">
      {flow.steps.map((step, i) => {
        const n = i + 1;
        const cut = cutAfter !== null && n > cutAfter;
        const stepWarnings = warnings.filter((w) => w.step === n);
        return (
          <li
            key={i}
            id={`step-${n}`}
            data-testid={`step-${n}`}
            aria-current={focus === i ? 'step' : undefined}
            onClick={() => onFocus?.(i)}
            className={[
              'scroll-mt-24 rounded-lg border bg-white p-3 transition',
              focus === i ? 'border-accent-500 ring-2 ring-accent-100' : 'border-slate-200',
              cut ? 'opacity-40' : '',
            ].join(' ')}
          >
            <div className="flex flex-wrap items-center gap-2 text-xs">
              <span className="font-mono font-semibold text-slate-500">{n}</span>
              <span
                className={
                  step.speaker === 'tutor'
                    ? 'rounded bg-accent-50 px-1.5 py-0.5 font-medium text-accent-700'
                    : 'rounded bg-amber-50 px-1.5 py-0.5 font-medium text-amber-800'
                }
              >
                {step.speaker === 'tutor' ? 'Tutor' : 'Student'}
              </span>
              {step.principles?.map((p) => (
                <Chip key={p}>{p}</Chip>
              ))}
              {step.materials?.map((m) =>
                provided.has(m) ? (
                  <a
                    key={m}
                    href={`#material-${m}`}
                    className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-slate-700 hover:underline"
                  >
                    {m}
                  </a>
                ) : (
                  <span key={m} className="rounded bg-red-100 px-1.5 py-0.5 font-mono text-red-800" title="Not provided by this flow">
                    {m}?
                  </span>
                ),
              )}
              {cut && <span className="ml-auto text-slate-500">cut</span>}
            </div>
            <div className="mt-1 text-sm">
              <RichText text={step.text} />
            </div>
            {stepWarnings.map((w, k) => (
              <p key={k} role="note" className="mt-2 rounded bg-amber-50 px-2 py-1 text-xs text-amber-900">
                ⚠ {w.message}
              </p>
            ))}
          </li>
        );
      })}
    </ol>
  );
}
