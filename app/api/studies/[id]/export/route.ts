import { route } from '@/lib/auth/handlers';
import { exportFlows } from '@/lib/server/exports';
import { exportGroundTruth } from '@/lib/server/ground-truth';
import { parseStudyId } from '@/lib/server/studies';

/** Streams an export: rows are read and sent as the client consumes them. */
export const GET = route((actor, request, { id }) => {
  const url = new URL(request.url);
  const what = url.searchParams.get('what') ?? 'flows';
  const format = url.searchParams.get('format') ?? 'jsonl';
  const studyId = parseStudyId(id);
  const gt = what === 'ground-truth' ? exportGroundTruth(actor, studyId, format) : null;
  const out = gt ?? exportFlows(actor, studyId, what, format);
  // Items without final labels yet are left out of the ground truth; say how many.
  const extra: Record<string, string> = gt ? { 'x-concord-incomplete-items': String(gt.summary.incomplete) } : {};
  const encoder = new TextEncoder();
  const lines = out.lines;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      // Send in chunks of a few hundred lines to keep the overhead per chunk small.
      let chunk = '';
      for (let i = 0; i < 256; i++) {
        const next = lines.next();
        if (next.done) {
          if (chunk) controller.enqueue(encoder.encode(chunk));
          controller.close();
          return;
        }
        chunk += next.value;
      }
      controller.enqueue(encoder.encode(chunk));
    },
    cancel() {
      lines.return(undefined);
    },
  });
  return new Response(stream, {
    headers: {
      'content-type': out.contentType,
      'content-disposition': `attachment; filename="${out.filename}"`,
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      ...extra,
    },
  });
});
