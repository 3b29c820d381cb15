import type { ReactNode } from 'react';
import { ReliabilityDiagram } from '@/components/charts/reliability-diagram';
import { Card } from '@/components/ui/card';
import type { Flat } from '@/lib/query/analytics';
import { CALIBRATION_TABLE_COLUMNS, type CalibrationPartDto, type JudgeCalibrationDto } from '@/lib/server/analytics/dto';
import { count } from './format';
import { StatTable, specColumns } from './stat-table';

/*
 * The calibration of judges that gave several verdicts per item (STATS-3 part D), on the Bias tab of every kind of
 * study: Brier scores and ECE per judge run and criterion (the table the CSV and the CLI read), and a reliability
 * diagram per run and criterion. When no run has several verdicts, one line says what would make it appear.
 */

type Part = Flat<CalibrationPartDto>;

const COLUMNS = specColumns(CALIBRATION_TABLE_COLUMNS);
/** Beyond this many judge × criterion pairs the diagrams would crowd the tab: the table still lists them all. */
const MAX_DIAGRAMS = 6;

export function CalibrationCard({ data, csv }: { data: Part; csv: (table: 'calibration' | 'reliability') => ReactNode }) {
  const rows = data.calibration;
  return (
    <Card
      title="Judge calibration"
      description="When the judge says it is sure, is it right that often?"
      actions={
        <span className="flex gap-2">
          {csv('calibration')}
          {csv('reliability')}
        </span>
      }
      padded={false}
    >
      <div data-testid="calibration-card">
        <p className="px-4 pt-3 text-sm text-slate-600">
          A judge run that gave several verdicts on an item (both reply orders, or several samples) is as confident as the share of its most
          frequent verdict. Brier score: the mean squared gap between that confidence and being right (0 is best); ECE: the weighted gap
          between confidence and accuracy over 10 bins of equal width, or of equal mass. Items with ground truth only.
        </p>
        {rows.length ? (
          <>
            <StatTable
              caption="Calibration per judge run and criterion"
              testId="calibration-table"
              columns={COLUMNS}
              rows={rows as unknown as JudgeCalibrationDto[]}
              rowKey={(c) => `${c.judge}\u0000${c.criterion}`}
              wrapperClassName="rounded-none border-0"
            />
            <div className="flex flex-wrap gap-6 px-4 py-3">
              {rows.slice(0, MAX_DIAGRAMS).map((c) => (
                <figure key={`${c.judge}\u0000${c.criterion}`} className="space-y-1">
                  <ReliabilityDiagram
                    bins={c.reliability}
                    ariaLabel={`Reliability diagram of ${c.judge} on ${c.criterion}: share right against confidence, ${c.bins} bins of equal width`}
                  />
                  <figcaption className="text-xs text-slate-600">
                    <span className="font-medium">{c.judge}</span> · {c.criterion} · {count(c.n)} items,{' '}
                    {c.samplesMin === c.samplesMax ? c.samplesMin : `${c.samplesMin}–${c.samplesMax}`} verdicts each
                  </figcaption>
                </figure>
              ))}
            </div>
          </>
        ) : null}
        {data.uncalibrated.length ? (
          <p className="px-4 py-3 text-sm text-slate-600" data-testid="calibration-missing">
            {data.uncalibrated.join(', ')}: one verdict per item and no confidence — judge each item more than once (both reply orders, or
            several samples) to measure calibration.
          </p>
        ) : null}
      </div>
    </Card>
  );
}
