import Link from 'next/link';
import { FlowContext } from '@/components/flow/flow-view';
import { ItemContext } from '@/components/kinds/pairwise/item-context';
import { Badge } from '@/components/ui/badge';
import { RichText } from '@/components/ui/rich-text';
import type { ItemDetailDto, ItemReviewerDto, ItemRevisionDto } from '@/lib/server/studies/dto';
import type { Label } from '@/lib/validation/labels';
import { FlowStepsView } from './flow-steps-view';
import { ReviewerRemarks } from './reviewer-remarks';

// Labels are stored from reply a's side.
const LABEL_TEXT: Record<Label, string> = { win: 'A better', tie: 'Tie', lose: 'B better' };
const when = (iso: string | null) => (iso ? `${iso.slice(0, 16).replace('T', ' ')} UTC` : '–');

function LabelCell({ label }: { label: Label | null }) {
  return label ? <span>{LABEL_TEXT[label]}</span> : <span className="text-slate-400">–</span>;
}

function flowText(f: NonNullable<ItemRevisionDto['flow']>) {
  const parts: string[] = [f.decision === 'truncate' ? `truncate after step ${f.afterStep}` : f.decision];
  if (f.reasons.length) parts.push(`reasons: ${f.reasons.join(', ')}`);
  if (f.note) parts.push(`note: ${f.note}`);
  return parts.join(' · ');
}

/** What changed in a pairwise revision against the one before it. */
function changes(prev: ItemRevisionDto | undefined, rev: ItemRevisionDto, names: Map<string, string>) {
  if (!rev.labels) return rev.flow ? flowText(rev.flow) : '(no labels)';
  const entries = Object.entries(rev.labels);
  const changed = prev?.labels ? entries.filter(([c, l]) => prev.labels![c] !== l) : entries;
  if (!changed.length) return 'same labels as before';
  return changed.map(([c, l]) => `${names.get(c) ?? c}: ${LABEL_TEXT[l]}`).join(' · ');
}

function Reviewers({ reviewers, pairwise, names }: { reviewers: ItemReviewerDto[]; pairwise: boolean; names: Map<string, string> }) {
  if (!reviewers.length) return <p className="text-sm text-slate-500">No reviewer is assigned to this item.</p>;
  return (
    <ol className="space-y-3" data-testid="item-reviewers">
      {reviewers.map((r) => (
        <li key={r.slot} className="rounded-lg border border-slate-200 bg-white p-3 text-sm">
          <p className="flex flex-wrap items-baseline gap-2">
            <span className="font-medium">{r.displayName}</span>
            <span className="text-slate-500">({r.username})</span>
            <Badge tone={r.state === 'submitted' ? 'success' : 'neutral'}>{r.state}</Badge>
            {pairwise && <span className="text-slate-500">saw reply {r.sawAFirst ? 'a' : 'b'} as Response 1</span>}
            <span className="text-slate-500">· active {r.activeSeconds} s</span>
          </p>
          <ReviewerRemarks username={r.username} remarks={r.remarks} />
          {r.revisions.length > 0 ? (
            <ol className="mt-2 space-y-1" aria-label={`Revisions of ${r.username}`}>
              {r.revisions.map((v, i) => (
                <li key={v.revision} className="text-slate-700">
                  <span className="font-mono text-xs text-slate-500">
                    rev {v.revision} · {when(v.at)}
                  </span>{' '}
                  {changes(r.revisions[i - 1], v, names)}
                  {i === r.revisions.length - 1 && r.state === 'pending' && <span className="ml-1 text-amber-700">(undone)</span>}
                </li>
              ))}
            </ol>
          ) : (
            <p className="mt-1 text-slate-500">Nothing submitted yet.</p>
          )}
        </li>
      ))}
    </ol>
  );
}

export function ItemDetail({ detail }: { detail: Exclude<ItemDetailDto, { kind: 'rubric' }> }) {
  const { studyId } = detail;
  const nav = (
    <nav aria-label="Items" className="flex items-center gap-4 text-sm">
      <Link href={`/studies/${studyId}/items`} className="text-accent-700 hover:underline">
        ← All items of {detail.studyName}
      </Link>
      {detail.previousId && <Link href={`/studies/${studyId}/items/${detail.previousId}`}>Previous item</Link>}
      {detail.nextId && <Link href={`/studies/${studyId}/items/${detail.nextId}`}>Next item</Link>}
    </nav>
  );
  const title = (
    <h1 className="text-2xl font-semibold">
      Item {detail.position} <span className="font-mono text-base font-normal text-slate-500">{detail.externalId}</span>
    </h1>
  );

  if (detail.kind === 'flow_review') {
    return (
      <div className="space-y-6">
        {nav}
        {title}
        <div className="grid gap-6 lg:grid-cols-[2fr_3fr]">
          <FlowContext flow={detail.flow} />
          <FlowStepsView flow={detail.flow} warnings={detail.warnings} />
        </div>
        <section className="space-y-2">
          <h2 className="text-lg font-semibold">Reviewers and their decisions</h2>
          <Reviewers reviewers={detail.reviewers} pairwise={false} names={new Map()} />
        </section>
      </div>
    );
  }

  const names = new Map(detail.criteria.map((c) => [c.id, c.name]));
  const rulings = detail.criteria.filter((c) => c.rulings.length);
  return (
    <div className="space-y-6">
      {nav}
      {title}
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
          {detail.groundTruthRule === 'majority' ? 'majority' : 'agreed or adjudicated'}).
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
                          {LABEL_TEXT[c.groundTruth.label]} <span className="text-xs text-slate-500">({c.groundTruth.provenance})</span>
                        </>
                      ) : c.waitsForAdjudicator ? (
                        <Badge tone="warning">waits for the adjudicator</Badge>
                      ) : (
                        <span className="text-slate-400">–</span>
                      )}
                    </td>
                    <td className="px-3 py-1.5">
                      {ruling ? (
                        <>
                          {LABEL_TEXT[ruling.label]} <span className="text-xs text-slate-500">by {ruling.by}</span>
                          {ruling.rationale && <p className="text-xs text-slate-600">“{ruling.rationale}”</p>}
                        </>
                      ) : (
                        <span className="text-slate-400">–</span>
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
                            <span className="text-slate-400">–</span>
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
        <Reviewers reviewers={detail.reviewers} pairwise names={names} />
      </section>
    </div>
  );
}
