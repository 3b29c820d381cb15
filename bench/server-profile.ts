/*
 * Where the production server's CPU went, by what it was doing: a `.cpuprofile` of `next start` (e.g. from
 * `bench/ceiling.ts --cpu-prof DIR`) summed into categories — SQLite statements, the session cookie, zod, Next's
 * request handling, Web Request/Response objects, node:http, garbage collection, start-up — with each sample's
 * frames mapped back to their source through the build's source maps (`.next/server/chunks/*.js.map`).
 *
 *   npx tsx bench/server-profile.ts FILE.cpuprofile [--requests N]
 *
 * A sample counts for the innermost frame that names a category (a native call such as a prepared statement's
 * `get` counts for the code that made it). With `--requests`, each category is also given per request.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { SourceMapConsumer, type RawSourceMap } from 'source-map-js';

type Frame = { functionName: string; url: string; lineNumber: number; columnNumber: number };
type Node = { id: number; callFrame: Frame; children?: number[] };
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[]; startTime: number; endTime: number };

const { values: args, positionals } = parseArgs({ allowPositionals: true, options: { requests: { type: 'string' } } });
const file = positionals[0];
if (!file) {
  process.stderr.write('usage: npx tsx bench/server-profile.ts FILE.cpuprofile [--requests N]\n');
  process.exit(2);
}
const p = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;

// Categories in the order they are tried on a source path (original file for app code, or the package / node module).
const RULES: [category: string, test: RegExp][] = [
  ['SQLite: statements and transactions (db/queries, better-sqlite3)', /(^|\/)db\/(queries|client)|better-sqlite3|drizzle-orm/],
  ['session cookie: decrypting the token (lib/auth/session, jose)', /lib\/auth\/session|\/jose\/|@panva\/hkdf|next-auth\/jwt/],
  ['sign-in (Auth.js, argon2)', /next-auth|@auth\/core|@node-rs\/argon2|lib\/auth\/(config|handlers)/],
  ['the proxy (proxy.ts and its adapter)', /(^|\/)proxy\.ts|next\/dist\/.*(adapter|middleware)/],
  ['zod parsing', /\/zod\//],
  ['Concord use-cases and routes (lib/, app/)', /(^|\/)(lib|app|db)\//],
  ['Next.js request handling (router, route modules, RSC)', /node_modules\/next\//],
  ['Web Request/Response objects and streams (undici, webstreams)', /undici|webstreams|abort_controller|event_target/],
  ['node:http and sockets', /node:_http|node:net|node:internal\/(http|stream_base|net)|node:internal\/streams/],
  ['start-up: loading modules', /node:internal\/modules|wrapSafe/],
];
const OTHER = 'other JavaScript (async hooks, timers, util, …)';

const maps = new Map<string, SourceMapConsumer | null>();
function consumerFor(url: string): SourceMapConsumer | null {
  if (!maps.has(url)) {
    let c: SourceMapConsumer | null = null;
    try {
      const js = fileURLToPath(url);
      const raw = JSON.parse(fs.readFileSync(`${js}.map`, 'utf8')) as RawSourceMap & { sections?: unknown };
      // Turbopack writes index maps (sections); source-map-js reads both forms.
      c = new SourceMapConsumer(raw);
    } catch {
      c = null;
    }
    maps.set(url, c);
  }
  return maps.get(url)!;
}

/** The source a frame came from: the original file for built chunks, else the module's own path or name. */
function sourceOf(f: Frame): string {
  if (!f.url) return '';
  if (f.url.includes('/.next/server/')) {
    const c = consumerFor(f.url);
    const pos = c?.originalPositionFor({ line: f.lineNumber + 1, column: f.columnNumber });
    if (pos?.source) return path.normalize(pos.source).replace(/^(\.\.\/)+/, '');
  }
  return f.url.replace(/^file:\/\//, '');
}

const byId = new Map(p.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);

const categoryOfNode = new Map<number, string>();
function categoryOf(id: number): string {
  const known = categoryOfNode.get(id);
  if (known) return known;
  const leaf = byId.get(id)!.callFrame.functionName;
  let category: string | undefined;
  if (leaf === '(idle)') category = '(idle)';
  else if (leaf === '(garbage collector)') category = 'garbage collection';
  else if (leaf === '(program)') category = '(program: V8 and native code outside JavaScript)';
  for (let at: number | undefined = id; !category && at !== undefined; at = parent.get(at)) {
    const src = sourceOf(byId.get(at)!.callFrame);
    if (src) category = RULES.find(([, re]) => re.test(src))?.[0];
  }
  category ??= OTHER;
  categoryOfNode.set(id, category);
  return category;
}

const us = new Map<string, number>();
p.samples.forEach((id, i) => {
  const c = categoryOf(id);
  us.set(c, (us.get(c) ?? 0) + (p.timeDeltas[i] ?? 0));
});
const idle = us.get('(idle)') ?? 0;
const total = [...us.values()].reduce((a, b) => a + b, 0);
const busy = total - idle;
const requests = args.requests ? Number(args.requests) : 0;

const lines = [
  `profile of ${((p.endTime - p.startTime) / 1e6).toFixed(1)} s: busy ${(busy / 1e6).toFixed(2)} s, idle ${(idle / 1e6).toFixed(2)} s` +
    (requests ? `; ${requests.toLocaleString('en')} requests → ${(busy / 1000 / requests).toFixed(2)} ms of CPU per request` : ''),
  '',
  `| where the busy time went | ms | share of busy${requests ? ' | ms per request' : ''} |`,
  `|---|---|---${requests ? '|---' : ''}|`,
];
for (const [c, t] of [...us].filter(([c]) => c !== '(idle)').sort((a, b) => b[1] - a[1])) {
  lines.push(
    `| ${c} | ${(t / 1000).toFixed(0)} | ${((100 * t) / busy).toFixed(1)} %${requests ? ` | ${(t / 1000 / requests).toFixed(2)}` : ''} |`,
  );
}
process.stdout.write(`${lines.join('\n')}\n`);
