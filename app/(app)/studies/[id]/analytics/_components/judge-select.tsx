'use client';

import { Select } from '@/components/ui/select';
import type { JudgeRunDto } from '@/lib/server/analytics/dto';
import { count } from './format';

export function JudgeSelect({ runs, value, onChange }: { runs: JudgeRunDto[]; value: string; onChange: (name: string) => void }) {
  return (
    <Select
      label="Judge run"
      value={value}
      onChange={(e) => onChange(e.target.value)}
      wrapperClassName="w-96 max-w-full"
      data-testid="judge-select"
    >
      {runs.map((r) => (
        <option key={r.name} value={r.name}>
          {r.name} — {count(r.labels)} verdicts{r.unparsed ? `, ${count(r.unparsed)} unreadable` : ''}
        </option>
      ))}
    </Select>
  );
}
