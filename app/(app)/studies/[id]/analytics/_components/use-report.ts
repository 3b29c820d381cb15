'use client';

import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { ReportName } from '@/lib/server/analytics/dto';
import { type ReportJson, type ReportParams, reportOptions } from '@/lib/query/analytics';

/** Replicates of the item bootstrap when the lead asks for intervals (the CLI's default). */
export const INTERVAL_REPLICATES = 1000;

/**
 * Up to this many labels, the bootstrap is cheap enough (well under a couple of seconds for 1,000 replicates) to
 * start by itself once the point estimates are on screen; above it, the lead asks for it.
 */
export const AUTO_BOOTSTRAP_MAX_LABELS = 20_000;

/**
 * A report for the current options. The server renders the page with the first options (and no bootstrap), which
 * seeds the cache; other options are fetched from the report route, and while they load the last report stays on
 * screen — each dashboard marks it as out of date by comparing what it shows with what was asked for.
 */
export function useReport<R extends ReportName>(
  studyId: number,
  report: R,
  params: ReportParams[R],
  initial: { params: ReportParams[R]; data: ReportJson[R] },
) {
  const same = JSON.stringify(params) === JSON.stringify(initial.params);
  const query = useQuery({
    ...reportOptions(studyId, report, params),
    initialData: same ? initial.data : undefined,
    placeholderData: keepPreviousData,
  });
  const data = (query.data ?? initial.data) as ReportJson[R];
  return {
    data,
    fetching: query.isFetching,
    error: query.error ? query.error.message || 'The report could not be loaded.' : null,
    retry: () => void query.refetch(),
  };
}

/** Keeps the chosen options in the address, so that a reload or a shared link shows the same report. */
export function useOptionsInUrl(values: Record<string, string | number | undefined>) {
  const search = new URLSearchParams(
    Object.entries(values).flatMap(([k, v]) => (v === undefined || v === '' ? [] : [[k, String(v)] as [string, string]])),
  ).toString();
  useEffect(() => {
    const next = search ? `?${search}` : window.location.pathname;
    if (window.location.search !== (search ? `?${search}` : '')) window.history.replaceState(null, '', next);
  }, [search]);
}
