/*
 * Where a process's CPU went, from a V8 `.cpuprofile` (`node --cpu-prof`, e.g. the judge runner under
 * `BENCH_CPU_PROF=DIR bench/judge-runner.ts`): self time per function and per file (node_modules grouped by package),
 * largest first, as a share of the profile's sampled time.
 *
 *   npx tsx bench/cpu-profile.ts FILE.cpuprofile [TOP=25]
 */
import fs from 'node:fs';

type Node = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; hitCount?: number };
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[]; startTime: number; endTime: number };

const [file, top = '25'] = process.argv.slice(2);
const p = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;
const byId = new Map(p.nodes.map((n) => [n.id, n]));
const selfUs = new Map<number, number>();
p.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (p.timeDeltas[i] ?? 0)));
const total = [...selfUs.values()].reduce((a, b) => a + b, 0);

const where = (url: string) => {
  if (!url) return '(native)';
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (nm) return `pkg:${nm[1]}`;
  if (url.startsWith('node:')) return url;
  return url.replace(/^file:\/\//, '').replace(process.cwd() + '/', '');
};
const fn = new Map<string, number>();
const files = new Map<string, number>();
for (const [id, us] of selfUs) {
  const n = byId.get(id)!;
  const f = where(n.callFrame.url);
  const key = `${n.callFrame.functionName || '(anonymous)'}  ${f}${n.callFrame.url ? `:${n.callFrame.lineNumber + 1}` : ''}`;
  fn.set(key, (fn.get(key) ?? 0) + us);
  files.set(f, (files.get(f) ?? 0) + us);
}
const show = (title: string, m: Map<string, number>) => {
  console.log(`\n${title}`);
  for (const [k, us] of [...m].sort((a, b) => b[1] - a[1]).slice(0, Number(top)))
    console.log(`${(us / 1000).toFixed(0).padStart(8)} ms ${((100 * us) / total).toFixed(1).padStart(5)} %  ${k}`);
};
console.log(`sampled ${(total / 1e6).toFixed(2)} s of CPU over ${((p.endTime - p.startTime) / 1e6).toFixed(1)} s`);
show('self time by file / package', files);
show('self time by function', fn);
