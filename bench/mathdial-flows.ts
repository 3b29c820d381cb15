/**
 * A Concord-format JSONL of `count` flows made from the MathDial test split with the MathDial adapter
 * (`mathdialToFlow`: realistic sizes), ids rewritten to be unique. Shared by the import benchmarks.
 */
import fs from 'node:fs';
import path from 'node:path';

export async function writeMathdialFlows(file: string, count: number): Promise<{ ids: string[]; bytes: number; conversations: number }> {
  const { mathdialRecordSchema, mathdialToFlow } = await import('@/lib/io/adapters/mathdial');
  const { publicDataDir } = await import('@/lib/io/public-data');
  const source = path.join(publicDataDir(), 'mathdial', 'test.jsonl');
  const flows = fs
    .readFileSync(source, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => mathdialToFlow(mathdialRecordSchema.parse(JSON.parse(l))));
  const fd = fs.openSync(file, 'w');
  let pending: string[] = [];
  let pendingBytes = 0;
  const ids: string[] = [];
  for (let k = 0; k < count; k++) {
    const base = flows[k % flows.length];
    const id = `${base.id}-c${k}`;
    ids.push(id);
    const line = JSON.stringify({ ...base, id }) + '\n';
    pending.push(line);
    pendingBytes += line.length;
    if (pendingBytes > 8 << 20) {
      fs.writeSync(fd, pending.join(''));
      pending = [];
      pendingBytes = 0;
    }
  }
  fs.writeSync(fd, pending.join(''));
  fs.closeSync(fd);
  return { ids, bytes: fs.statSync(file).size, conversations: flows.length };
}
