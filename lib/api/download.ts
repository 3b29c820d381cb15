/**
 * A file the API sends as it is read: the export use-cases hand back a generator of lines, and this sends them as the
 * client takes them (a few hundred lines a chunk, to keep the overhead per chunk small), so a study of any size is
 * never held in memory. The API's downloads and the browser's export route (`app/api/studies/[id]/export`) send it.
 */
export type LinesFile = { lines: Generator<string, unknown, undefined>; contentType: string; filename: string };

export function linesResponse(out: LinesFile, headers: Record<string, string> = {}): Response {
  const encoder = new TextEncoder();
  const lines = out.lines;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
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
      ...headers,
    },
  });
}
