'use client';

import { Select } from '@/components/ui/select';

/*
 * The pickers the rubric dashboards share: which dimension to show, and whether labels are scored strictly or folded
 * by each dimension's lenient map.
 */

/** Picks one dimension of a rubric study, by its id. */
export function DimensionSelect({
  dimensions,
  value,
  onChange,
  wrapperClassName = 'w-72',
}: {
  dimensions: { id: string; name: string }[];
  value: string;
  onChange: (id: string) => void;
  wrapperClassName?: string;
}) {
  return (
    <Select label="Dimension" value={value} onChange={(e) => onChange(e.target.value)} wrapperClassName={wrapperClassName}>
      {dimensions.map((d) => (
        <option key={d.id} value={d.id}>
          {d.name}
        </option>
      ))}
    </Select>
  );
}

/** Strict or lenient scoring; the dashboard words each choice for what it measures. */
export function ScoringSelect({
  lenient,
  onChange,
  strictLabel,
  lenientLabel,
  testId,
}: {
  lenient: boolean;
  onChange: (lenient: boolean) => void;
  strictLabel: string;
  lenientLabel: string;
  testId?: string;
}) {
  return (
    <Select
      label="Scoring"
      value={lenient ? 'lenient' : 'strict'}
      onChange={(e) => onChange(e.target.value === 'lenient')}
      wrapperClassName="w-72"
      data-testid={testId}
    >
      <option value="strict">{strictLabel}</option>
      <option value="lenient">{lenientLabel}</option>
    </Select>
  );
}
