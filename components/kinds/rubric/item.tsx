import Link from 'next/link';
import { ChatHistory } from '@/components/review/chat-history';
import { RichText } from '@/components/ui/rich-text';
import type { ItemDetailDto, RubricItemDetailDto } from '@/lib/server/studies/dto';
import { ReviewerRemarks } from '@/components/study/reviewer-remarks';

/** One rubric item for the study's leads: the dialogue and reply with its tutor, each reviewer's labels, rulings, judges. */
export function RubricItemView({ studyId, item }: { studyId: number; item: RubricItemDetailDto }) {
  const runs = [...new Set(item.dimensions.flatMap((d) => d.judges.map((j) => (j.sample > 1 ? `${j.run} #${j.sample}` : j.run))))];
  return (
    <div className="space-y-4">
      <p className="text-sm">
        <Link href={`/studies/${studyId}/items`} className="text-accent-700 hover:underline">
          ← Items
        </Link>
      </p>
      <h1 className="font-mono text-xl font-semibold break-all">{item.externalId}</h1>
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
                  <th className="px-3 py-2">Dimension</th>
                  {item.reviewers.map((r) => (
                    <th key={r.slot} className="px-3 py-2">
                      {r.username}
                      {r.state === 'pending' ? <span className="text-xs font-normal text-slate-500"> (pending)</span> : null}
                    </th>
                  ))}
                  <th className="px-3 py-2">Ruling</th>
                  <th className="px-3 py-2">Ground truth</th>
                  {runs.map((r) => (
                    <th key={r} className="px-3 py-2">
                      {r}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {item.dimensions.map((d) => (
                  <tr key={d.id} className="border-t border-slate-100 align-top" data-testid={`item-dimension-${d.id}`}>
                    <td className="px-3 py-1.5 font-medium">{d.name}</td>
                    {d.labels.map((l, i) => (
                      <td key={i} className={d.needsAdjudication ? 'px-3 py-1.5 text-amber-800' : 'px-3 py-1.5'}>
                        {l ?? '–'}
                      </td>
                    ))}
                    <td className="px-3 py-1.5">
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
                    <td className="px-3 py-1.5">
                      {d.final ? (
                        <>
                          {d.final.label}
                          {d.final.lenient !== d.final.label ? (
                            <span className="text-xs text-slate-500"> (lenient: {d.final.lenient})</span>
                          ) : null}
                          <span className="block text-xs text-slate-500">{d.final.provenance}</span>
                        </>
                      ) : (
                        '–'
                      )}
                    </td>
                    {runs.map((r) => {
                      const v = d.judges.find((j) => (j.sample > 1 ? `${j.run} #${j.sample}` : j.run) === r);
                      return (
                        <td key={r} className="px-3 py-1.5" title={v?.rationale ?? undefined}>
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
  );
}

/** The item page's panel for a rubric study: the item page reads one DTO for every kind, the rubric one wraps its item. */
export function RubricItemPage({ detail }: { detail: Extract<ItemDetailDto, { kind: 'rubric' }> }) {
  return <RubricItemView studyId={detail.studyId} item={detail.rubric} />;
}
