/**
 * The study screens ask the kind registry (components/kinds) instead of branching on a study's kind, and no kind's
 * panel sits as a `rubric-*` twin beside another kind's. Read on the source tree, like test/architecture.test.ts:
 * a failure names the file and line.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { KIND_NAMES } from '@/lib/kinds/names';
import { STUDY_KINDS } from '@/lib/validation/labels';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** The screens: shared components, and the study pages with their route components (analytics and judges are not screens of a kind). */
const SCREENS = [
  'components',
  'app/(app)/page.tsx',
  'app/(app)/studies/page.tsx',
  'app/(app)/studies/new',
  'app/(app)/studies/[id]/page.tsx',
  'app/(app)/studies/[id]/_components',
  'app/(app)/studies/[id]/review',
  'app/(app)/studies/[id]/adjudicate',
  'app/(app)/studies/[id]/items',
];
/** Where a kind's own code belongs, and the judges' screens, which are another engineer's to fold. */
const EXEMPT = ['components/kinds/', 'components/judges/'];

function files(entry: string): string[] {
  const abs = path.join(ROOT, entry);
  if (!fs.existsSync(abs)) return [];
  if (fs.statSync(abs).isFile()) return [entry];
  return fs.readdirSync(abs).flatMap((name) => files(path.posix.join(entry, name)));
}

/** `file:line  text` of every line of code (comments left out) in the screens that matches `re`. */
function linesMatching(re: RegExp): string {
  return screenFiles
    .flatMap((f) =>
      fs
        .readFileSync(path.join(ROOT, f), 'utf8')
        .split('\n')
        .flatMap((line, i) => (!/^\s*(\/\/|\/\*|\*)/.test(line) && re.test(line) ? [`${f}:${i + 1}  ${line.trim()}`] : [])),
    )
    .join('\n');
}

const screenFiles = SCREENS.flatMap(files)
  .filter((f) => /\.(ts|tsx)$/.test(f) && !/\.test\.tsx?$/.test(f))
  .filter((f) => !EXEMPT.some((e) => f.startsWith(e)));

const kinds = STUDY_KINDS.join('|');
const BRANCH = new RegExp(`kind\\s*[!=]==?\\s*['"](?:${kinds})['"]|['"](?:${kinds})['"]\\s*[!=]==?\\s*\\w*\\.?kind\\b|case\\s+['"](?:${kinds})['"]`);
const KIND_LITERAL_NAME = new RegExp(Object.values(KIND_NAMES).map((k) => `['">]${k.name}(?: —|['"<])`).join('|'));

describe('the study screens ask the kind registry', () => {
  it('finds the screens', () => {
    expect(screenFiles.length).toBeGreaterThan(20);
    expect(screenFiles).toContain('app/(app)/studies/[id]/page.tsx');
  });

  it('no screen outside components/kinds branches on a study kind', () => {
    expect(linesMatching(BRANCH)).toBe('');
  });

  it('no screen spells a kind\'s name: it comes from lib/kinds/names.ts', () => {
    expect(linesMatching(KIND_LITERAL_NAME)).toBe('');
  });

  it('no kind panel is a rubric-* twin beside another kind\'s file', () => {
    const twins = SCREENS.flatMap(files).filter((f) => path.posix.basename(f).startsWith('rubric-') && !EXEMPT.some((e) => f.startsWith(e)));
    expect(twins).toEqual([]);
  });

  it('every kind has its screens folder registered', () => {
    const registry = fs.readFileSync(path.join(ROOT, 'components/kinds/registry.ts'), 'utf8');
    for (const kind of STUDY_KINDS) expect(registry).toMatch(new RegExp(`^\\s*${kind}: \\w+Screens,$`, 'm'));
  });
});
