import type { ReactNode } from 'react';
import type { CriterionDto } from '@/lib/server/review/dto';

export type CriterionGroup<C> = {
  key: string;
  title: string;
  level: CriterionDto['level'];
  rows: { criterion: C; index: number }[];
};

/**
 * Consecutive criteria of the same level (and principle) under one heading, keeping the order given (the
 * server's order is the keyboard order): General, then one group per principle, then the overall verdict.
 */
export function groupCriteria<C extends Pick<CriterionDto, 'level' | 'principle'>>(criteria: readonly C[]): CriterionGroup<C>[] {
  const groups: CriterionGroup<C>[] = [];
  criteria.forEach((criterion, index) => {
    const key = criterion.level === 'principle' ? `principle:${criterion.principle ?? ''}` : criterion.level;
    let group = groups.at(-1);
    if (!group || group.key !== key) {
      const title =
        criterion.level === 'general'
          ? 'General'
          : criterion.level === 'overall'
            ? 'Overall verdict'
            : (criterion.principle ?? 'Principle');
      group = { key, title, level: criterion.level, rows: [] };
      groups.push(group);
    }
    group.rows.push({ criterion, index });
  });
  return groups;
}

/** A group's heading (with an optional action beside it, such as "Tie for the open ones") and its rows as a list. */
export function CriterionGroupList({
  id,
  title,
  level,
  action,
  children,
}: {
  id: string;
  title: string;
  level: CriterionDto['level'];
  action?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div role="group" aria-labelledby={id}>
      <div className="mb-1.5 flex items-baseline justify-between gap-2">
        <h3
          id={id}
          className={
            level === 'overall'
              ? 'text-xs font-semibold tracking-wide text-slate-800 uppercase'
              : 'text-xs font-semibold tracking-wide text-slate-500 uppercase'
          }
        >
          {level === 'principle' ? <span className="font-normal normal-case">Principle · </span> : null}
          {title}
        </h3>
        {action}
      </div>
      <ul className="space-y-2">{children}</ul>
    </div>
  );
}
