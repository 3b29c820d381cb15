import type { IntervalDto } from '@/lib/server/analytics/dto';
import {
  CLIPPED_DETAIL,
  CLIPPED_TEXT,
  type NumberKind,
  formatInterval,
  formatValue,
  reasonDetail,
  reasonText,
  shownInterval,
} from './format';

export type ValueProps = {
  value: number | null;
  /** Why the value is null (the `<name>Reason` sibling of the report JSON). */
  reason?: string;
  kind: NumberKind;
  interval?: IntervalDto;
  testId?: string;
  /** Leave the zero-width flag to the caller, which says more (the corrected leaderboard's caution). */
  noZeroWidthFlag?: boolean;
};

/** A normal interval of no width comes from values all alike (STATS-2 3.5): it is not certainty, and is flagged. */
const zeroWidth = (i: IntervalDto | undefined) =>
  i !== undefined && i.method === 'normal' && i.lower !== null && i.upper !== null && i.upper - i.lower <= 1e-12;

/**
 * A statistic with its 95 % interval under it, or "n/a" with the reason in words. An interval that is simply not
 * computed yet (bootstrap off) is left blank: the page says so once, not in every cell.
 */
export function Value({ value, reason, kind, interval, testId, noZeroWidthFlag }: ValueProps) {
  if (value === null) {
    return (
      <span className="inline-block max-w-40 text-left whitespace-normal" data-testid={testId} title={reasonDetail(reason)}>
        <span className="font-medium text-amber-700">n/a</span>
        <span className="block text-xs font-normal text-slate-500">{reasonText(reason)}</span>
      </span>
    );
  }
  const shown = interval ? formatInterval(interval, kind, false) : null;
  const clipped = interval ? !!shownInterval(interval, kind)?.clipped : false;
  const missing = interval && !shown && interval.reason && interval.reason !== 'not_computed' ? interval.reason : null;
  const undefinedReplicates = interval?.undefinedReplicates
    ? `${interval.undefinedReplicates} bootstrap replicate(s) were undefined and left out`
    : undefined;
  return (
    <span className="inline-block whitespace-nowrap" title={undefinedReplicates}>
      <span data-testid={testId}>{formatValue(value, kind)}</span>
      {shown ? (
        <span className="block text-xs font-normal text-slate-500">
          <span className="sr-only">95 % interval </span>
          {shown}
          {undefinedReplicates ? <span aria-hidden="true">*</span> : null}
        </span>
      ) : null}
      {clipped ? (
        <span className="block text-xs font-normal text-slate-500" data-testid="interval-clipped" title={CLIPPED_DETAIL}>
          {CLIPPED_TEXT}
        </span>
      ) : null}
      {shown && !noZeroWidthFlag && zeroWidth(interval) ? (
        <span
          className="block text-xs font-normal text-amber-700"
          data-testid="zero-width"
          title="Every value alike: the interval has no width, which the data cannot make certain. Label more items."
        >
          zero width: all alike
        </span>
      ) : null}
      {missing ? (
        <span className="block text-xs font-normal whitespace-normal text-slate-500" title={reasonDetail(missing)}>
          no interval: {reasonText(missing)}
        </span>
      ) : null}
    </span>
  );
}
