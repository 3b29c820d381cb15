'use client';

import { Select } from '@/components/ui/select';
import { judgeRunsInOrder } from '@/components/study/judge-run-order';
import type { JudgeRunDto } from '@/lib/server/analytics/dto';
import { count } from './format';

/** The judge run a dashboard shows; runs without verdicts are listed last and say so (they have nothing to show). */
export function JudgeSelect({ runs, value, onChange }: { runs: JudgeRunDto[]; value: string; onChange: (name: string) => void }) {
  return (
    <Select
      label="Judge run"
      value={value}
      onChange={(e) => onChange(e.target.value)}
      wrapperClassName="w-96 max-w-full"
      data-testid="judge-select"
    >
      {judgeRunsInOrder(runs).map((r) => (
        <option key={r.name} value={r.name}>
          {r.labels === 0
            ? `${r.name} — no verdicts${r.unparsed ? ` (${count(r.unparsed)} unreadable)` : ''}`
            : `${r.name} — ${count(r.labels)} verdicts${r.unparsed ? `, ${count(r.unparsed)} unreadable` : ''}`}
        </option>
      ))}
    </Select>
  );
}
