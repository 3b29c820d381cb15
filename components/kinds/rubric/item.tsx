import { ChatHistory } from '@/components/review/chat-history';
import { RichText } from '@/components/ui/rich-text';
import type { ItemDetailDto, RubricItemDetailDto } from '@/lib/server/studies/dto';
import { ItemPageFrame, when } from '@/components/study/item-page';
import { ReviewerRemarks } from '@/components/study/reviewer-remarks';

type Reviewer = RubricItemDetailDto['reviewers'][number];

/** What a revision changed from the one before, in words ("first labels: …" or "Dimension: Yes → No"). */
function describeRevision(previous: Reviewer['revisions'][number] | undefined, labels: Record<string, string>) {
  const all = Object.entries(labels).map(([d, l]) => `${d}: ${l}`);
  if (!previous) return all.length ? all.join(' · ') : 'no labels';
  const changed = Object.entries(labels)
    .filter(([d, l]) => previous.labels[d] !== l)
    .map(([d, l]) => `${d}: ${previous.labels[d] ?? '–'} → ${l}`);
  return changed.length ? changed.join(' · ') : 'no label changed';
}

/**
 * One rubric item for the study's leads, in the frame of every kind's item page (back to the items, previous and
 * next): the dialogue and reply with its tutor, each reviewer's labels, rulings and judges in a table that wraps its
 * headers rather than run past its card, and every revision each reviewer submitted.
 */
export function RubricItemView({ item }: { item: RubricItemDetailDto }) {
  const runs = [...new Set(item.dimensions.flatMap((d) => d.judges.map((j) => (j.sample > 1 ? `${j.run} #${j.sample}` : j.run))))];
  // Narrow padding, and a judge run's name (e.g. "prometheus-eval/prometheus-7b-v2.0") may break anywhere: the
  // table then fits its half of the page at 1440 px; short words ("Ruling", "Yes") never break.
  const th = 'px-2 py-2 align-bottom';
  const runTh = `${th} [overflow-wrap:anywhere]`;
  const td = 'px-2 py-1.5';
  return (
    <ItemPageFrame detail={item}>
      <div className="space-y-4">
        <p className="text-sm text-slate-600">
          Dialogue <span className="font-mono">{item.group ?? '–'}</span> · tutor <span className="font-medium">{item.source ?? '–'}</span>
        </p>
        <div className="grid gap-4 lg:grid-cols-2">
          <div className="min-w-0 space-y-3">
            {item.problem ? (
              <section className="rounded-lg border border-slate-200 bg-white p-3">
                <h2 className="mb-1 text-xs font-semibold tracking-wide text-slate-500 uppercase">Problem</h2>
                <RichText text={item.problem} />
              </section>
            ) : null}
            <ChatHistory history={item.history} />
            {item.reply !== null ? (
              <article className="contain-card rounded-lg border-2 border-emerald-600 bg-white p-3">
                <h2 className="mb-1 text-sm font-semibold text-emerald-900">Reply ({item.source})</h2>
                <RichText text={item.reply} />
              </article>
            ) : null}
          </div>
          <div className="min-w-0 space-y-3">
            <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
              <table className="w-full text-sm" data-testid="rubric-item-labels">
                <thead className="bg-slate-50 text-left text-slate-600">
                  <tr>
                    <th className={th}>Dimension</th>
                    {item.reviewers.map((r) => (
                      <th key={r.slot} className={th}>
                        {r.username}
                        {r.state === 'pending' ? <span className="text-xs font-normal text-slate-500"> (pending)</span> : null}
                      </th>
                    ))}
                    <th className={th}>Ruling</th>
                    <th className={th}>Ground truth</th>
                    {runs.map((r) => (
                      <th key={r} className={runTh}>
                        {r}
                      </th>
                    ))}
                  </tr>
                </thead>
                <tbody>
                  {item.dimensions.map((d) => (
                    <tr key={d.id} className="border-t border-slate-100 align-top" data-testid={`item-dimension-${d.id}`}>
                      <td className={`${td} font-medium`}>{d.name}</td>
                      {d.labels.map((l, i) => (
                        <td key={i} className={d.needsAdjudication ? `${td} text-amber-800` : td}>
                          {l ?? '–'}
                        </td>
                      ))}
                      <td className={td}>
                        {d.ruling ? (
                          <>
                            {d.ruling.label} <span className="text-xs text-slate-500">by {d.ruling.adjudicator}</span>
                            {d.ruling.rationale ? <p className="text-xs text-slate-600">{d.ruling.rationale}</p> : null}
                          </>
                        ) : d.needsAdjudication ? (
                          <span className="text-amber-800">waiting</span>
                        ) : (
                          '–'
                        )}
                      </td>
                      <td className={td}>
                        {d.final ? (
                          <>
                            {d.final.label}
                            {d.final.lenient !== d.final.label ? (
                              <span className="text-xs text-slate-500"> (lenient: {d.final.lenient})</span>
                            ) : null}
                            <span className="block text-xs text-slate-500">
                              {d.final.provenance}
                              {d.final.posterior !== undefined ? `, posterior ${d.final.posterior.toFixed(3)}` : ''}
                            </span>
                          </>
                        ) : (
                          '–'
                        )}
                      </td>
                      {runs.map((r) => {
                        const v = d.judges.find((j) => (j.sample > 1 ? `${j.run} #${j.sample}` : j.run) === r);
                        return (
                          <td key={r} className={td} title={v?.rationale ?? undefined}>
                            {v?.label ?? '–'}
                          </td>
                        );
                      })}
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
            {item.reviewers.some((r) => r.remarks.flagReason !== null || r.remarks.comment !== null) ? (
              <section className="rounded-lg border border-slate-200 bg-white p-3 text-sm" data-testid="item-remarks">
                <h2 className="mb-1 text-xs font-semibold tracking-wide text-slate-500 uppercase">Flags and comments</h2>
                <ul className="space-y-2">
                  {item.reviewers.map((r) =>
                    r.remarks.flagReason !== null || r.remarks.comment !== null ? (
                      <li key={r.slot}>
                        <span className="font-medium">{r.username}</span>
                        <ReviewerRemarks username={r.username} remarks={r.remarks} />
                      </li>
                    ) : null,
                  )}
                </ul>
              </section>
            ) : null}
            <section className="rounded-lg border border-slate-200 bg-white p-3 text-sm" data-testid="rubric-item-revisions">
              <h2 className="mb-1 text-xs font-semibold tracking-wide text-slate-500 uppercase">Revisions</h2>
              {item.reviewers.length === 0 ? (
                <p className="text-slate-500">No reviewer is assigned to this item.</p>
              ) : (
                <ul className="space-y-2">
                  {item.reviewers.map((r) => (
                    <li key={r.slot}>
                      <span className="font-medium">{r.username}</span>
                      {r.revisions.length ? (
                        <ol className="mt-1 space-y-0.5" aria-label={`Revisions of ${r.username}`}>
                          {r.revisions.map((v, i) => (
                            <li key={v.revision} className="text-slate-700">
                              <span className="font-mono text-xs text-slate-500">
                                rev {v.revision} · {when(v.at)}
                              </span>{' '}
                              {describeRevision(r.revisions[i - 1], v.labels)}
                              {i === r.revisions.length - 1 && r.state === 'pending' ? (
                                <span className="ml-1 text-amber-700">(undone)</span>
                              ) : null}
                            </li>
                          ))}
                        </ol>
                      ) : (
                        <span className="text-slate-500"> — nothing submitted yet.</span>
                      )}
                    </li>
                  ))}
                </ul>
              )}
            </section>
            {item.reviewers.some((r) => r.note) ? (
              <section className="rounded-lg border border-slate-200 bg-white p-3 text-sm">
                <h2 className="mb-1 text-xs font-semibold tracking-wide text-slate-500 uppercase">Notes</h2>
                <ul className="space-y-1">
                  {item.reviewers
                    .filter((r) => r.note)
                    .map((r) => (
                      <li key={r.slot}>
                        <span className="font-medium">{r.username}:</span> {r.note}
                      </li>
                    ))}
                </ul>
              </section>
            ) : null}
          </div>
        </div>
      </div>
    </ItemPageFrame>
  );
}

/** The item page's panel for a rubric study: the item page reads one DTO for every kind, the rubric one wraps its item. */
export function RubricItemPage({ detail }: { detail: Extract<ItemDetailDto, { kind: 'rubric' }> }) {
  return <RubricItemView item={detail.rubric} />;
}
