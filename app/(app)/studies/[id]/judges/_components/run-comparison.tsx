import { Link } from '@/components/ui/link';
import type { JudgeComparisonDto, LeftOutDto, RubricComparisonScoresDto, RubricJudgeComparisonDto } from '@/lib/server/judges/dto';

const pct = (v: number | null) => (v === null ? '—' : `${(v * 100).toFixed(1)} %`);
const dec = (v: number | null) => (v === null ? '—' : v.toFixed(3));

/*
 * Judge runs side by side, as the study's kind compares them: a pairwise study per criterion and order, a rubric study
 * per dimension and one sample at a time. The number formats are shared.
 */

/** Judge runs side by side: alignment with ground truth per criterion, κ, position consistency, cost. */
export function RunComparison({ comparison }: { comparison: JudgeComparisonDto }) {
  const { runs, criteria } = comparison;
  const noTruth = runs.every((r) => r.groundTruthLabels === 0);
  return (
    <section aria-labelledby="compare-heading" className="space-y-2">
      <h2 id="compare-heading" className="text-lg font-semibold">
        Runs compared
      </h2>
      {noTruth && <p className="text-sm text-slate-600">The study has no ground truth yet: alignment and κ need settled human labels.</p>}
      <LeftOutNote leftOut={comparison.leftOut} />
      <div className="overflow-x-auto">
        <table className="min-w-full text-sm" aria-label="Judge runs compared">
          <thead>
            <tr className="border-b border-slate-200 text-left">
              <th scope="col" className="py-1 pr-4">
                &nbsp;
              </th>
              {runs.map((r) => (
                <th key={r.name} scope="col" className="py-1 pr-4">
                  {r.name}
                  <span className="block text-xs font-normal text-slate-500">{r.model ? `${r.model} · ${r.template}` : 'imported'}</span>
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="tabular-nums">
            {(
              [
                ['Labels compared', (r) => r.n.toLocaleString('en-US')],
                ['Alignment', (r) => pct(r.alignment)],
                ['Alignment without ties', (r) => pct(r.alignmentNoTies)],
                ["Cohen's κ", (r) => dec(r.kappa)],
                ['Position consistency', (r) => pct(r.positionConsistency)],
                ['Unreadable', (r) => String(r.unreadable)],
                [
                  'Tokens in / out',
                  (r) => (r.tokensIn === null ? '—' : `${r.tokensIn.toLocaleString('en-US')} / ${r.tokensOut!.toLocaleString('en-US')}`),
                ],
                ['Estimated cost', (r) => (r.cost === null ? '—' : `$${r.cost.toFixed(4)}`)],
              ] as [string, (r: JudgeComparisonDto['runs'][number]) => string][]
            ).map(([label, value]) => (
              <tr key={label} className="border-b border-slate-100">
                <th scope="row" className="py-1 pr-4 text-left font-medium">
                  {label}
                </th>
                {runs.map((r) => (
                  <td key={r.name} className="py-1 pr-4">
                    {value(r)}
                  </td>
                ))}
              </tr>
            ))}
            {criteria.map((c) => (
              <tr key={c.id} className="border-b border-slate-100">
                <th scope="row" className="py-1 pr-4 text-left font-normal">
                  Alignment · {c.name}
                </th>
                {runs.map((r) => (
                  <td key={r.name} className="py-1 pr-4">
                    {pct(r.byCriterion[c.id] ?? null)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

type RubricRun = RubricJudgeComparisonDto['runs'][number];

/**
 * Judge runs of a rubric study side by side (one sample of each): macro-F1 and Cohen's κ strict and lenient, per
 * dimension and pooled, accuracy, tokens and cost — the rubric alignment report's numbers.
 */
/** Which items the comparison leaves out and why: worked examples of a compared run's template (decision 0033). */
function LeftOutNote({ leftOut }: { leftOut: LeftOutDto | null }) {
  if (!leftOut) return null;
  return (
    <p className="text-sm text-amber-800" role="note" data-testid="left-out">
      {leftOut.note}
    </p>
  );
}

export function RubricRunComparison({ comparison, studyId }: { comparison: RubricJudgeComparisonDto; studyId: number }) {
  const { runs, dimensions, sample } = comparison;
  const noTruth = runs.every((r) => r.groundTruthLabels === 0);
  const scoreRows = (
    prefix: string,
    of: (r: RubricRun) => RubricComparisonScoresDto,
    lenient: boolean,
  ): [string, (r: RubricRun) => string][] => [
    [`${prefix}Macro-F1`, (r) => dec(of(r).macroF1)],
    ...(lenient
      ? ([[`${prefix}Macro-F1 (lenient)`, (r: RubricRun) => dec(of(r).macroF1Lenient)]] as [string, (r: RubricRun) => string][])
      : []),
    [`${prefix}Cohen's κ`, (r) => dec(of(r).kappa)],
    ...(lenient
      ? ([[`${prefix}Cohen's κ (lenient)`, (r: RubricRun) => dec(of(r).kappaLenient)]] as [string, (r: RubricRun) => string][])
      : []),
  ];
  const rows: [string, (r: RubricRun) => string, boolean?][] = [
    ['Labels compared', (r) => r.n.toLocaleString('en-US')],
    ['Accuracy', (r) => pct(r.alignment)],
    ...scoreRows(
      '',
      (r) => r,
      dimensions.some((d) => d.lenient),
    ),
    ['Unreadable', (r) => String(r.unreadable)],
    [
      'Tokens in / out',
      (r) => (r.tokensIn === null ? '—' : `${r.tokensIn.toLocaleString('en-US')} / ${r.tokensOut!.toLocaleString('en-US')}`),
    ],
    ['Estimated cost', (r) => (r.cost === null ? '—' : `$${r.cost.toFixed(4)}`)],
    ...dimensions.flatMap((d) =>
      scoreRows(`${d.name} · `, (r) => r.byDimension[d.id], d.lenient).map(
        ([l, v]) => [l, v, true] as [string, (r: RubricRun) => string, boolean],
      ),
    ),
  ];
  return (
    <section aria-labelledby="compare-heading" className="space-y-2">
      <h2 id="compare-heading" className="text-lg font-semibold">
        Runs compared
      </h2>
      <p className="text-sm text-slate-600">
        Sample {sample} of each run against ground truth. Lenient scores fold the labels each dimension&apos;s lenient map joins; pooled
        scores need dimensions with the same labels.
      </p>
      {noTruth && <p className="text-sm text-slate-600">The study has no ground truth yet: macro-F1 and κ need settled human labels.</p>}
      <LeftOutNote leftOut={comparison.leftOut} />
      <div className="overflow-x-auto">
        <table className="min-w-full text-sm" aria-label="Judge runs compared">
          <thead>
            <tr className="border-b border-slate-200 text-left">
              <th scope="col" className="py-1 pr-4">
                &nbsp;
              </th>
              {runs.map((r) => (
                <th key={r.name} scope="col" className="py-1 pr-4">
                  <Link
                    className="text-accent-700 hover:underline"
                    href={`/studies/${studyId}/analytics/alignment?judge=${encodeURIComponent(r.name)}`}
                  >
                    {r.name}
                  </Link>
                  <span className="block text-xs font-normal text-slate-500">{r.model ? `${r.model} · ${r.template}` : 'imported'}</span>
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="tabular-nums">
            {rows.map(([label, value, perDimension]) => (
              <tr key={label} className="border-b border-slate-100">
                <th scope="row" className={`py-1 pr-4 text-left ${perDimension ? 'font-normal' : 'font-medium'}`}>
                  {label}
                </th>
                {runs.map((r) => (
                  <td key={r.name} className="py-1 pr-4">
                    {value(r)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
