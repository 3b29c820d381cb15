import type { JudgeComparisonDto } from '@/lib/server/judges/dto';

const pct = (v: number | null) => (v === null ? '—' : `${(v * 100).toFixed(1)} %`);
const dec = (v: number | null) => (v === null ? '—' : v.toFixed(3));

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
