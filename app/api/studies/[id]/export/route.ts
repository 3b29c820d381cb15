import { linesResponse } from '@/lib/api/download';
import { route } from '@/lib/auth/handlers';
import { exportFlows } from '@/lib/server/studies/exports';
import { invalid } from '@/lib/server/errors';
import { exportGroundTruth } from '@/lib/server/ground-truth/ground-truth';
import { parseStudyId } from '@/lib/server/studies/studies';

/** `include-incomplete=1` (or `true`) also exports the flows not every planned reviewer has submitted yet. */
function includeIncomplete(url: URL): boolean {
  const raw = url.searchParams.get('include-incomplete');
  if (raw === null || raw === '0' || raw === 'false') return false;
  if (raw === '1' || raw === 'true') return true;
  throw invalid(`The query parameter include-incomplete must be 1 or 0 (true or false), not "${raw.slice(0, 40)}".`);
}

/** Streams an export: rows are read and sent as the client consumes them. */
export const GET = route((actor, request, { id }) => {
  const url = new URL(request.url);
  const what = url.searchParams.get('what') ?? 'flows';
  const format = url.searchParams.get('format') ?? 'jsonl';
  const studyId = parseStudyId(id);
  const gt = what === 'ground-truth' ? exportGroundTruth(actor, studyId, format) : null;
  const out = gt ?? exportFlows(actor, studyId, what, format, { includeIncomplete: includeIncomplete(url) });
  // Items not complete yet are left out of the ground truth and of the verified flows (unless asked for); say how many.
  const incomplete = gt ? gt.summary.incomplete : what === 'flows' ? out.summary.incomplete : null;
  const extra: Record<string, string> = incomplete === null ? {} : { 'x-concord-incomplete-items': String(incomplete) };
  return linesResponse(out, extra);
});
