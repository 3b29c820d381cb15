'use client';

import { Link } from '@/components/ui/link';
import { useRouter } from 'next/navigation';
import { useState, useTransition } from 'react';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card } from '@/components/ui/card';
import { Dialog } from '@/components/ui/dialog';
import { Select } from '@/components/ui/select';
import { TBody, TD, THead, TR, Table } from '@/components/ui/table';
import type { ReportTable } from '@/lib/server/analytics/dto';
import { type ReportJson, reportFilename, reportUrl } from '@/lib/query/analytics';
import { excludeAnnotatorAction, includeAnnotatorAction } from '../annotators/actions';
import { DownloadLink } from './downloads';
import { count } from './format';
import { Th } from './th';
import { Value } from './value';

type Report = ReportJson['annotators'];
type Row = Report['rows'][number];
type Person = Report['annotators'][number];

/** The sortable columns, each with the number (or name) it sorts by; undefined values sort last. */
const SORTS: Record<string, { label: string; key: (r: Row, p: Person | undefined) => number | string | null }> = {
  annotator: { label: 'Annotator', key: (r) => r.username },
  items: { label: 'Items', key: (r) => r.items },
  accuracy: { label: 'Accuracy', key: (r) => r.accuracy.rate },
  kappa: { label: 'κ', key: (r) => r.kappa },
  loo: { label: 'Agreement with the others', key: (r) => r.loo.rate },
  ds: { label: 'Dawid–Skene competence', key: (r) => r.dsCompetence },
  mace: { label: 'MACE competence', key: (r) => r.maceCompetence },
  share: { label: 'Most used label', key: (r) => r.mostUsedShare },
  run: { label: 'Longest run', key: (r) => r.longestRun },
  first: { label: 'First shown preferred', key: (r) => r.firstShown?.rate ?? null },
  time: { label: 'Active time', key: (_r, p) => p?.activeRatio ?? null },
};
type SortId = keyof typeof SORTS;

function compare(a: number | string | null, b: number | string | null, dir: 1 | -1): number {
  if (a === null && b === null) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return (a < b ? -1 : a > b ? 1 : 0) * dir;
}

/** Each annotator's quality on one criterion (dimension), sortable, with the exclusion of an annotator and its undo. */
export function AnnotatorsDashboard({ studyId, data }: { studyId: number; data: Report }) {
  const router = useRouter();
  const [unit, setUnit] = useState(data.units[0]?.unit ?? '');
  const [sort, setSort] = useState<{ id: SortId; dir: 1 | -1 }>({ id: 'annotator', dir: 1 });
  const [asking, setAsking] = useState<Row | null>(null);
  const [done, setDone] = useState<{ username: string; userId: number; excluded: boolean } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const people = new Map(data.annotators.map((p) => [p.userId, p]));
  const rows = data.rows
    .filter((r) => r.unit === unit)
    .sort((a, b) => compare(SORTS[sort.id].key(a, people.get(a.userId)), SORTS[sort.id].key(b, people.get(b.userId)), sort.dir));

  const change = (userId: number, username: string, exclude: boolean) =>
    startTransition(async () => {
      setError(null);
      const res = exclude ? await excludeAnnotatorAction(studyId, userId) : await includeAnnotatorAction(studyId, userId);
      if (!res.ok) {
        setError(res.error);
        return;
      }
      setAsking(null);
      setDone({ username, userId, excluded: exclude });
      router.refresh();
    });

  const header = (id: SortId, numeric = true) => {
    const active = sort.id === id;
    return (
      <Th numeric={numeric} aria-sort={active ? (sort.dir === 1 ? 'ascending' : 'descending') : 'none'}>
        <button
          type="button"
          className="inline-flex items-center gap-1 hover:text-slate-900"
          onClick={() => setSort({ id, dir: active ? (sort.dir === 1 ? -1 : 1) : id === 'annotator' ? 1 : -1 })}
        >
          {SORTS[id].label}
          <span aria-hidden="true">{active ? (sort.dir === 1 ? '▲' : '▼') : '↕'}</span>
        </button>
      </Th>
    );
  };
  const csv = (table: ReportTable<'annotators'>) => (
    <DownloadLink
      href={reportUrl(studyId, 'annotators', {}, { format: 'csv', table })}
      filename={reportFilename(studyId, 'annotators', { table, format: 'csv' })}
    >
      CSV
    </DownloadLink>
  );

  return (
    <div className="space-y-5">
      <div className="flex flex-wrap items-end justify-between gap-3">
        {data.units.length > 1 ? (
          <Select label="Criterion" value={unit} onChange={(e) => setUnit(e.target.value)} wrapperClassName="w-64">
            {data.units.map((u) => (
              <option key={u.unit} value={u.unit}>
                {u.unit}
              </option>
            ))}
          </Select>
        ) : (
          <span />
        )}
        <DownloadLink href={reportUrl(studyId, 'annotators', {})} filename={reportFilename(studyId, 'annotators', { format: 'json' })}>
          Whole report (JSON)
        </DownloadLink>
      </div>

      {done ? (
        <Alert tone="success" data-testid="exclusion-notice">
          {done.excluded
            ? `${done.username} is excluded: their labels are left out of the ground truth and every report.`
            : `${done.username} is included again: their labels count.`}{' '}
          <button
            type="button"
            className="font-medium underline"
            disabled={pending}
            onClick={() => change(done.userId, done.username, !done.excluded)}
          >
            Undo
          </button>
        </Alert>
      ) : null}
      {error ? <Alert tone="error">{error}</Alert> : null}

      <Card
        title="Annotators"
        description={`Ground truth: ${data.rule}. Accuracy and κ are against the ground truth without the annotator’s own vote.`}
        actions={csv('annotators')}
        padded={false}
      >
        <p className="px-4 pt-3 text-sm text-slate-600">
          One row per annotator on this criterion. Agreement with the others: with the plurality of the other annotators (ties skipped).
          Dawid–Skene competence: the diagonal of the annotator’s confusion matrix, weighted by the class priors; MACE competence: the
          probability the annotator labels by knowledge rather than by habit. A share of one label near 100 % or a long run of one label
          suggests straight-lining. Intervals are Wilson 95 %. Excluded annotators are listed but take no part in the ground truth or the
          models.
        </p>
        <Table caption="Annotator quality" captionHidden wrapperClassName="rounded-none border-0" data-testid="annotators-table">
          <THead>
            <TR>
              {header('annotator', false)}
              {header('items')}
              {header('accuracy')}
              {header('kappa')}
              {header('loo')}
              {header('ds')}
              {header('mace')}
              {header('share')}
              {header('run')}
              {data.kind === 'pairwise' ? header('first') : null}
              {header('time')}
              <Th>Items behind the figures</Th>
              <Th>
                <span className="sr-only">Exclusion</span>
              </Th>
            </TR>
          </THead>
          <TBody>
            {rows.map((r) => {
              const p = people.get(r.userId);
              return (
                <TR
                  key={r.userId}
                  data-testid="annotator-row"
                  data-username={r.username}
                  className={r.excluded ? 'bg-slate-50 text-slate-500' : undefined}
                >
                  <TD>
                    <span className="font-medium">{r.username}</span>
                    {r.excluded ? (
                      <Badge tone="warning" className="ml-2">
                        excluded
                      </Badge>
                    ) : null}
                  </TD>
                  <TD numeric>{count(r.items)}</TD>
                  <TD numeric>
                    <Value
                      value={r.accuracy.rate}
                      reason={r.accuracy.rateReason}
                      kind="rate"
                      interval={r.accuracy.interval}
                      testId="accuracy"
                    />
                    <span className="block text-xs text-slate-500">
                      {count(r.accuracy.k)} of {count(r.accuracy.n)}
                    </span>
                  </TD>
                  <TD numeric>
                    <Value value={r.kappa} reason={r.kappaReason} kind="coef" />
                  </TD>
                  <TD numeric>
                    <Value value={r.loo.rate} reason={r.loo.rateReason} kind="rate" interval={r.loo.interval} testId="loo" />
                    <span className="block text-xs text-slate-500">
                      {count(r.loo.k)} of {count(r.loo.n)}
                      {r.loo.tied ? ` · ${count(r.loo.tied)} tied` : ''}
                    </span>
                  </TD>
                  <TD numeric>
                    <Value value={r.dsCompetence} reason={r.dsCompetenceReason} kind="coef" />
                  </TD>
                  <TD numeric>
                    <Value value={r.maceCompetence} reason={r.maceCompetenceReason} kind="coef" testId="mace" />
                  </TD>
                  <TD numeric>
                    <Value value={r.mostUsedShare} reason={r.mostUsedShareReason} kind="rate" testId="most-used-share" />
                    <span className="block text-xs text-slate-500">{r.mostUsedLabel ?? '—'}</span>
                  </TD>
                  <TD numeric>
                    <span data-testid="longest-run">{count(r.longestRun)}</span>
                    <span className="block text-xs text-slate-500">{r.longestRunLabel ?? '—'}</span>
                  </TD>
                  {data.kind === 'pairwise' ? (
                    <TD numeric>
                      {r.firstShown ? (
                        <>
                          <Value value={r.firstShown.rate} reason={r.firstShown.rateReason} kind="rate" interval={r.firstShown.interval} />
                          <span className="block text-xs text-slate-500">
                            {count(r.firstShown.count)} of {count(r.firstShown.decisive)}
                          </span>
                        </>
                      ) : (
                        <span className="text-xs text-slate-500">no display order</span>
                      )}
                    </TD>
                  ) : null}
                  <TD numeric>
                    {p && p.medianActiveSeconds !== null ? (
                      <>
                        <Value value={p.activeRatio} reason={p.activeRatioReason} kind="coef" />
                        <span className="block text-xs text-slate-500">{p.medianActiveSeconds.toFixed(1)} s per item</span>
                      </>
                    ) : (
                      <span className="text-xs text-slate-500">no active time</span>
                    )}
                  </TD>
                  <TD>
                    {r.disagreementsTotal ? (
                      <details data-testid="disagreements">
                        <summary className="cursor-pointer text-sm text-accent-700">
                          {count(r.disagreementsTotal)} {r.disagreementsTotal === 1 ? 'disagreement' : 'disagreements'}
                        </summary>
                        <ul className="mt-1 space-y-0.5 text-xs">
                          {r.disagreements.map((d) => (
                            <li key={d.itemId}>
                              <Link href={`/studies/${studyId}/items/${d.itemId}`} className="text-accent-700 hover:underline">
                                {d.item}
                              </Link>{' '}
                              {d.label} (reference {d.reference})
                            </li>
                          ))}
                          {r.disagreementsTotal > r.disagreements.length ? (
                            <li className="text-slate-500">
                              … and {count(r.disagreementsTotal - r.disagreements.length)} more (CSV, JSON)
                            </li>
                          ) : null}
                        </ul>
                      </details>
                    ) : (
                      <span className="text-xs text-slate-500">none</span>
                    )}
                  </TD>
                  <TD>
                    {r.excluded ? (
                      <Button size="sm" variant="secondary" pending={pending} onClick={() => change(r.userId, r.username, false)}>
                        Include again
                      </Button>
                    ) : (
                      <Button size="sm" variant="ghost" onClick={() => setAsking(r)}>
                        Exclude…
                      </Button>
                    )}
                  </TD>
                </TR>
              );
            })}
          </TBody>
        </Table>
      </Card>

      <Card
        title="Active time"
        description="Median active seconds per item, against the study’s median."
        actions={csv('time')}
        padded={false}
      >
        <p className="px-4 py-3 text-sm text-slate-600">
          Study median:{' '}
          {data.medianActiveSeconds === null
            ? 'none recorded (imported labels carry no active time)'
            : `${data.medianActiveSeconds.toFixed(1)} s per item`}
          .
        </p>
      </Card>

      <Dialog
        open={asking !== null}
        onClose={() => setAsking(null)}
        title={asking ? `Exclude ${asking.username}?` : ''}
        description="Their labels leave the ground truth and every report of this study (each says how many labels were left out and whose). Nothing is deleted: you can include them again."
        footer={
          <>
            <Button variant="secondary" onClick={() => setAsking(null)}>
              Cancel
            </Button>
            <Button variant="danger" pending={pending} onClick={() => asking && change(asking.userId, asking.username, true)}>
              Exclude
            </Button>
          </>
        }
      />
    </div>
  );
}
