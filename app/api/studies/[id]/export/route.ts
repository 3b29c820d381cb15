import { route } from '@/lib/auth/handlers';
import { exportFlows } from '@/lib/server/exports';
import { parseStudyId } from '@/lib/server/studies';

/** Streams an export: rows are read and sent as the client consumes them. */
export const GET = route((actor, request, { id }) => {
  const url = new URL(request.url);
  const out = exportFlows(actor, parseStudyId(id), url.searchParams.get('what') ?? 'flows', url.searchParams.get('format') ?? 'jsonl');
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
    },
  });
});
