import type { Metadata } from 'next';
import { Link } from '@/components/ui/link';
import { openApiDocument } from '@/lib/api/openapi';
import { PROBLEM_TITLES } from '@/lib/api/problem';

export const metadata: Metadata = { title: 'HTTP API' };

type Param = { name: string; in: string; required: boolean; description?: string; schema: unknown };
type Op = {
  operationId: string;
  summary: string;
  description: string;
  parameters: Param[];
  requestBody?: { description?: string; content: Record<string, { schema: unknown }> };
  responses: Record<string, { description?: string; content?: Record<string, { schema: unknown }> }>;
};

/** A body or an answer by media type: JSON shows its schema; a file (an upload, a download) is named by its types. */
function Content({ title, content }: { title: string; content: Record<string, { schema: unknown }> | undefined }) {
  const types = Object.keys(content ?? {});
  const json = content?.['application/json'];
  return (
    <div>
      <h3 className="font-medium">
        {title} ({json ? 'application/json' : `a file: ${types.join(', ')}`})
      </h3>
      {json ? <Schema value={json.schema} /> : null}
    </div>
  );
}

const METHOD_TONE: Record<string, string> = {
  get: 'bg-sky-100 text-sky-900',
  post: 'bg-emerald-100 text-emerald-900',
  put: 'bg-amber-100 text-amber-900',
  delete: 'bg-rose-100 text-rose-900',
};

function Schema({ value }: { value: unknown }) {
  // Focusable, so that a keyboard can scroll a long schema.
  return (
    <pre tabIndex={0} className="max-h-96 overflow-auto rounded bg-slate-50 p-3 text-xs leading-relaxed text-slate-800">
      {JSON.stringify(value, null, 2)}
    </pre>
  );
}

/** The API reference for people, rendered from the same OpenAPI document that /api/openapi.json serves. */
export default function ApiDocsPage() {
  const doc = openApiDocument();
  const ops = Object.entries(doc.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ path, method, op: op as Op })),
  );
  return (
    <main className="mx-auto max-w-5xl space-y-8 px-4 py-8">
      <header className="space-y-2">
        <h1 className="text-2xl font-semibold">Concord HTTP API (v1)</h1>
        <p className="text-slate-700">{doc.info.description}</p>
        <p className="text-slate-700">
          Make a token on your{' '}
          <Link className="text-sky-800 underline" href="/account">
            account page
          </Link>{' '}
          or with <code>npx concord token create</code>. The machine-readable description is{' '}
          <a className="text-sky-800 underline" href="/api/openapi.json">
            /api/openapi.json
          </a>{' '}
          (OpenAPI 3.1); the guide with worked examples is docs/api.md in the repository.
        </p>
      </header>
      <nav aria-label="Operations">
        <ul className="space-y-1 text-sm">
          {ops.map(({ path, method, op }) => (
            <li key={op.operationId}>
              <a className="font-mono text-sky-800 hover:underline" href={`#${op.operationId}`}>
                {method.toUpperCase()} {path}
              </a>{' '}
              — {op.summary}
            </li>
          ))}
        </ul>
      </nav>
      {ops.map(({ path, method, op }) => {
        const ok = Object.entries(op.responses).find(([status]) => status.startsWith('2'));
        return (
          <section
            key={op.operationId}
            id={op.operationId}
            aria-labelledby={`${op.operationId}-title`}
            className="space-y-3 rounded border border-slate-200 bg-white p-4"
          >
            <h2 id={`${op.operationId}-title`} className="flex items-center gap-3 text-lg font-semibold">
              <span className={`rounded px-2 py-0.5 font-mono text-sm uppercase ${METHOD_TONE[method] ?? ''}`}>{method}</span>
              <span className="font-mono">{path}</span>
            </h2>
            <p>{op.summary}.</p>
            <p className="whitespace-pre-line text-sm text-slate-700">{op.description}</p>
            {op.parameters.length > 0 && (
              <table className="w-full text-left text-sm">
                <caption className="sr-only">Parameters</caption>
                <thead>
                  <tr className="border-b border-slate-200">
                    <th scope="col" className="py-1 pr-3">
                      Parameter
                    </th>
                    <th scope="col" className="py-1 pr-3">
                      In
                    </th>
                    <th scope="col" className="py-1 pr-3">
                      Required
                    </th>
                    <th scope="col" className="py-1">
                      What
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {op.parameters.map((p) => (
                    <tr key={p.name} className="border-b border-slate-100 align-top">
                      <td className="py-1 pr-3 font-mono">{p.name}</td>
                      <td className="py-1 pr-3">{p.in}</td>
                      <td className="py-1 pr-3">{p.required ? 'yes' : 'no'}</td>
                      <td className="py-1">
                        {p.description ?? ''} <code className="text-xs text-slate-600">{JSON.stringify(p.schema)}</code>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
            {op.requestBody && (
              <Content
                title={op.requestBody.description ? `Body — ${op.requestBody.description}` : 'Body'}
                content={op.requestBody.content}
              />
            )}
            {ok && <Content title={`${ok[0]} — ${ok[1].description}`} content={ok[1].content} />}
          </section>
        );
      })}
      <section aria-labelledby="problems" className="space-y-2">
        <h2 id="problems" className="text-lg font-semibold">
          Problems
        </h2>
        <p className="text-sm text-slate-700">
          Every refusal is an RFC 9457 problem document (<code>application/problem+json</code>) with <code>type</code>, <code>title</code>,{' '}
          <code>status</code>, <code>detail</code> and, where fields or lines of a file were wrong, <code>errors</code>: one{' '}
          <code>{'{ path, message, line? }'}</code> each.
        </p>
        <dl className="space-y-2 text-sm">
          {Object.entries(PROBLEM_TITLES).map(([kind, { status, title }]) => (
            <div key={kind} id={`problem-${kind.replaceAll('_', '-')}`}>
              <dt className="font-mono">
                {status} {kind.replaceAll('_', '-')}
              </dt>
              <dd className="text-slate-700">{title}.</dd>
            </div>
          ))}
        </dl>
      </section>
    </main>
  );
}
