import type { TemplatePreviewDto } from '@/lib/server/judges/dto';

/* The rendered prompt of a template on one of the study's items, as the judge would receive it. */

export function Preview({ preview }: { preview: TemplatePreviewDto }) {
  return (
    <div className="space-y-2" aria-label="Rendered prompt">
      <p className="text-xs text-slate-500">
        Item {preview.item}, criterion {preview.criterion}, replies in the order a, b · {preview.requestsPerItem} request(s) per item and
        sample in one order · prompt hash {preview.promptHash.slice(0, 12)}
      </p>
      {preview.messages.map((m, i) => (
        <div key={i}>
          <p className="text-xs font-medium uppercase tracking-wide text-slate-500">{m.role}</p>
          <pre className="whitespace-pre-wrap break-words rounded bg-slate-50 p-2 font-mono text-xs" data-testid={`preview-${m.role}`}>
            {m.content}
          </pre>
        </div>
      ))}
    </div>
  );
}
