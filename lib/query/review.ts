import { queryOptions } from '@tanstack/react-query';
import type { ActionResult } from '@/lib/auth/handlers';
import type {
  AdjudicationItemDto,
  AdjudicationQueueDto,
  FlowAssignmentDto,
  JudgeAssignmentDto,
  QueueDto,
  RubricAdjudicationItemDto,
  RubricAssignmentDto,
} from '@/lib/server/review/dto';

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

/**
 * One assignment as its kind's panel reads it; the kind names the shape (`assignmentOptions<RubricAssignmentDto>`),
 * the route and the cache entry are the same for every kind.
 */
export const assignmentOptions = <T extends FlowAssignmentDto | JudgeAssignmentDto | RubricAssignmentDto = FlowAssignmentDto>(
  assignmentId: number,
) =>
  queryOptions({
    queryKey: assignmentKey(assignmentId),
    queryFn: () => getJson<T>(`/api/assignments/${assignmentId}`),
    staleTime: 5 * 60_000,
  });

export const adjudicationQueueKey = (studyId: number) => ['adjudication-queue', studyId] as const;
export const adjudicationItemKey = (studyId: number, itemId: number) => ['adjudication-item', studyId, itemId] as const;

export const adjudicationQueueOptions = (studyId: number) =>
  queryOptions({
    queryKey: adjudicationQueueKey(studyId),
    queryFn: () => getJson<AdjudicationQueueDto>(`/api/studies/${studyId}/adjudication`),
  });

/** One disputed item as its kind's adjudication panel reads it; as with assignments, the kind names the shape. */
export const adjudicationItemOptions = <T extends AdjudicationItemDto | RubricAdjudicationItemDto = AdjudicationItemDto>(
  studyId: number,
  itemId: number,
) =>
  queryOptions({
    queryKey: adjudicationItemKey(studyId, itemId),
    queryFn: () => getJson<T>(`/api/studies/${studyId}/adjudication/${itemId}`),
    staleTime: 60_000,
  });

/**
 * Saves a reviewer's draft (any kind) through the draft route, answering as a server action would. `keepalive` lets
 * the request finish when it was sent by a screen that is closing (the draft saved on leaving an item or the tab).
 * A server that cannot be reached rejects, as a failed action call does.
 */
export async function sendDraft(input: { assignmentId: number; draft: unknown; activeMs: number }): Promise<ActionResult<{ saved: true }>> {
  const res = await fetch(`/api/assignments/${input.assignmentId}/draft`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ draft: input.draft, activeMs: input.activeMs }),
    keepalive: true,
  });
  const body = (await res.json().catch(() => null)) as ActionResult<{ saved: true }> | null;
  return body ?? { ok: false, error: `The draft could not be saved (${res.status}).` };
}
