import fs from 'node:fs';
import path from 'node:path';
import type { StudyKind } from '@/lib/validation/labels';

/** The guidelines the demo's studies open with: one Markdown text per kind of study, `seed-data/guidelines/<kind>.md`. */
export function demoGuidelines(kind: StudyKind): string {
  return fs.readFileSync(path.join(process.cwd(), 'lib', 'server', 'demo', 'seed-data', 'guidelines', `${kind}.md`), 'utf8');
}
