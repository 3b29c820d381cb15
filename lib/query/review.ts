import { queryOptions } from '@tanstack/react-query';
import type { FlowAssignmentDto, QueueDto } from '@/lib/server/review';

export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export async function getJson<T>(url: string): Promise<T> {
  const res = await fetch(url, { headers: { accept: 'application/json' }, cache: 'no-store' });
  const body = await res.json().catch(() => null);
  if (!res.ok) throw new HttpError(res.status, (body && typeof body.error === 'string' && body.error) || `Request failed (${res.status})`);
  return body as T;
}

export const queueKey = (studyId: number) => ['queue', studyId] as const;
export const assignmentKey = (assignmentId: number) => ['assignment', assignmentId] as const;

export const queueOptions = (studyId: number) =>
  queryOptions({ queryKey: queueKey(studyId), queryFn: () => getJson<QueueDto>(`/api/studies/${studyId}/queue`) });

export const assignmentOptions = (assignmentId: number) =>
  queryOptions({
    queryKey: assignmentKey(assignmentId),
    queryFn: () => getJson<FlowAssignmentDto>(`/api/assignments/${assignmentId}`),
    staleTime: 5 * 60_000,
  });
