'use client';

import { useState, useTransition } from 'react';
import { setGroundTruthRuleAction } from '@/app/(app)/studies/actions';
import { GROUND_TRUTH_RULE_NAMES, type GroundTruthRuleChoice } from '@/lib/validation/studies';

// Per item (adjudicated, majority) or a model over the whole study (dawid_skene, mace; decision 0028).
const RULES = GROUND_TRUTH_RULE_NAMES;

export function GroundTruthRule({ studyId, rule }: { studyId: number; rule: GroundTruthRuleChoice }) {
  const [error, setError] = useState<string | null>(null);
  const [pending, start] = useTransition();
  return (
    <label className="text-sm">
      <span className="sr-only">Ground truth rule</span>
      <select
        value={rule}
        disabled={pending}
        aria-label="Ground truth rule"
        onChange={(e) =>
          start(async () => {
            const res = await setGroundTruthRuleAction(studyId, e.target.value);
            setError(res.ok ? null : res.error);
          })
        }
        className="rounded-md border border-slate-300 px-2 py-1"
      >
        {Object.entries(RULES).map(([value, label]) => (
          <option key={value} value={value}>
            {label[0].toUpperCase() + label.slice(1)}
          </option>
        ))}
      </select>
      {error && (
        <span role="alert" className="ml-2 text-red-700">
          {error}
        </span>
      )}
    </label>
  );
}
