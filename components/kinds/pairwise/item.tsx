import { ItemPageFrame, ItemReviewers, when } from '@/components/study/item-page';
import { Badge } from '@/components/ui/badge';
import { RichText } from '@/components/ui/rich-text';
import type { ItemDetailDto, ItemRevisionDto } from '@/lib/server/studies/dto';
import type { Label } from '@/lib/validation/labels';
import { ItemContext } from './item-context';
import { GROUND_TRUTH_RULE_NAMES } from '@/lib/validation/studies';

// Labels are stored from reply a's side.
const LABEL_TEXT: Record<Label, string> = { win: 'A better', tie: 'Tie', lose: 'B better' };

function LabelCell({ label }: { label: Label | null }) {
  return label ? <span>{LABEL_TEXT[label]}</span> : <span className="text-slate-500">–</span>;
}

/** What changed in a pairwise revision against the one before it. */
function changes(prev: ItemRevisionDto | undefined, rev: ItemRevisionDto, names: Map<string, string>) {
  if (!rev.labels) return '(no labels)';
  const entries = Object.entries(rev.labels);
  const changed = prev?.labels ? entries.filter(([c, l]) => prev.labels![c] !== l) : entries;
  if (!changed.length) return 'same labels as before';
  return changed.map(([c, l]) => `${names.get(c) ?? c}: ${LABEL_TEXT[l]}`).join(' · ');
}

/** One pairwise item for the study's leads: the item, both replies with their sources, every label, rulings and judges. */
export function PairwiseItemPage({ detail }: { detail: Extract<ItemDetailDto, { kind: 'pairwise' }> }) {
  const names = new Map(detail.criteria.map((c) => [c.id, c.name]));
  const rulings = detail.criteria.filter((c) => c.rulings.length);
  return (
    <ItemPageFrame detail={detail}>
      <div className="grid gap-6 lg:grid-cols-2">
        <ItemContext problem={detail.problem} instructions={detail.instructions} principles={detail.principles} history={detail.history} />
        <section aria-label="Replies" className="space-y-4">
          {(['a', 'b'] as const).map((side) => (
            <article key={side} className="contain-card rounded-lg border border-slate-300 bg-white" data-testid={`reply-${side}`}>
              <h2 className="flex flex-wrap items-center gap-2 border-b border-slate-200 px-4 py-2 text-sm font-semibold">
                Reply {side}
                <Badge tone="warning" title="Reviewers never see who wrote a reply">
                  source: {detail.replies[side].source ?? 'unknown'}
                </Badge>
              </h2>
              <div className="px-4 py-3">
                <RichText text={detail.replies[side].text} />
              </div>
            </article>
          ))}
        </section>
      </div>

      <section className="space-y-2">
        <h2 className="text-lg font-semibold">Labels per criterion</h2>
        <p className="text-xs text-slate-500">
          Every label reads from reply a&apos;s side. Ground truth follows the study&apos;s rule (
          {GROUND_TRUTH_RULE_NAMES[detail.groundTruthRule]}).
        </p>
        <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
          <table className="w-full text-sm" data-testid="item-criteria">
            <thead className="bg-slate-50 text-left text-slate-600">
              <tr>
                <th className="px-3 py-2">Criterion</th>
                {detail.reviewers.map((r) => (
                  <th key={r.slot} className="px-3 py-2">
                    {r.username}
                  </th>
                ))}
                <th className="px-3 py-2">Ground truth</th>
                <th className="px-3 py-2">Adjudication</th>
                {detail.judgeRuns.map((run) => (
                  <th key={run} className="px-3 py-2">
                    Judge: {run}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {detail.criteria.map((c) => {
                const ruling = c.rulings.at(-1);
                return (
                  <tr key={c.id} className="border-t border-slate-100 align-top">
                    <th scope="row" className="px-3 py-1.5 text-left font-medium" title={c.description}>
                      {c.name}
                    </th>
                    {c.labels.map((l, i) => (
                      <td key={i} className="px-3 py-1.5">
                        <LabelCell label={l} />
                      </td>
                    ))}
                    <td className="px-3 py-1.5">
                      {c.groundTruth ? (
                        <>
                          {LABEL_TEXT[c.groundTruth.label]}{' '}
                          <span className="text-xs text-slate-500">
                            ({c.groundTruth.provenance}
                            {c.groundTruth.posterior !== undefined ? `, posterior ${c.groundTruth.posterior.toFixed(3)}` : ''})
                          </span>
                        </>
                      ) : c.waitsForAdjudicator ? (
                        <Badge tone="warning">waits for the adjudicator</Badge>
                      ) : (
                        <span className="text-slate-500">–</span>
                      )}
                    </td>
                    <td className="px-3 py-1.5">
                      {ruling ? (
                        <>
                          {LABEL_TEXT[ruling.label]} <span className="text-xs text-slate-500">by {ruling.by}</span>
                          {ruling.rationale && <p className="text-xs text-slate-600">“{ruling.rationale}”</p>}
                        </>
                      ) : (
                        <span className="text-slate-500">–</span>
                      )}
                    </td>
                    {detail.judgeRuns.map((run) => {
                      const verdicts = c.verdicts.filter((v) => v.run === run);
                      return (
                        <td key={run} className="px-3 py-1.5">
                          {verdicts.length ? (
                            verdicts.map((v) => (
                              <div key={v.order}>
                                {LABEL_TEXT[v.label]}
                                {verdicts.length > 1 && <span className="text-xs text-slate-500"> ({v.order})</span>}
                                {v.rationale && (
                                  <details className="text-xs text-slate-600">
                                    <summary className="cursor-pointer">rationale</summary>
                                    <p className="whitespace-pre-wrap">{v.rationale}</p>
                                  </details>
                                )}
                              </div>
                            ))
                          ) : (
                            <span className="text-slate-500">–</span>
                          )}
                        </td>
                      );
                    })}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      </section>

      {rulings.length > 0 && (
        <section className="space-y-2">
          <h2 className="text-lg font-semibold">Adjudication history</h2>
          <ol className="space-y-1 text-sm" data-testid="item-rulings">
            {rulings.flatMap((c) =>
              c.rulings.map((r) => (
                <li key={`${c.id}-${r.revision}`}>
                  <span className="font-mono text-xs text-slate-500">
                    {when(r.at)} · rev {r.revision}
                  </span>{' '}
                  {c.name}: {LABEL_TEXT[r.label]} by {r.by}
                  {r.rationale ? ` — “${r.rationale}”` : ''}
                </li>
              )),
            )}
          </ol>
        </section>
      )}

      <section className="space-y-2">
        <h2 className="text-lg font-semibold">Reviewers and their revisions</h2>
        <ItemReviewers
          reviewers={detail.reviewers}
          describe={(previous, rev) => changes(previous, rev, names)}
          aside={(r) => <span className="text-slate-500">saw reply {r.sawAFirst ? 'a' : 'b'} as Response 1</span>}
        />
      </section>
    </ItemPageFrame>
  );
}
