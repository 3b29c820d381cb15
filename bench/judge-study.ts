/**
 * A pairwise study of `records / 2` items (9 general criteria) and a judge run of `records` records (each item in
 * both orders) × 10 verdicts (the 9 criteria and overall), as files for the CLI and the upload routes. Shared by
 * heavy-requests.ts and soak.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { seededRandom } from '@/e2e/support/server';

const CRITERIA = Array.from({ length: 9 }, (_, k) => `general_${k + 1}`);
const LABELS = ['lose', 'tie', 'win'];

export function writeJudgeStudyFiles(dir: string, records: number) {
  const items = records / 2;
  const catalog = path.join(dir, 'criteria.json');
  fs.writeFileSync(
    catalog,
    JSON.stringify(CRITERIA.map((id) => ({ id, name: id, level: 'general', description: `Which reply is better on ${id}?` }))),
  );
  const itemsFile = path.join(dir, 'items.jsonl');
  const judgeFile = path.join(dir, 'judge.jsonl');
  const itemLines: string[] = [];
  const judge = fs.openSync(judgeFile, 'w');
  const random = seededRandom(20261123);
  for (let i = 0; i < items; i++) {
    const id = `bench-${String(i).padStart(6, '0')}`;
    itemLines.push(
      JSON.stringify({ id, problem: `Problem ${i}`, a: { source: `model-${i % 5}`, text: 'a' }, b: { source: 'ref', text: 'b' } }),
    );
    let chunk = '';
    for (const swapped of [false, true]) {
      const labels = Object.fromEntries([...CRITERIA, 'overall'].map((c) => [c, LABELS[Math.floor(random() * 3)]]));
      chunk += `${JSON.stringify({ item: id, judge: 'bench-judge', labels, swapped, rationale: 'The first reply names the error.' })}\n`;
    }
    fs.writeSync(judge, chunk);
  }
  fs.closeSync(judge);
  fs.writeFileSync(itemsFile, `${itemLines.join('\n')}\n`);
  return { catalog, itemsFile, judgeFile, bytes: fs.statSync(judgeFile).size };
}
