import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { publicDataDir } from '@/lib/io/public-data';
import { runInBatch } from '@/test/cli-batch';
import { parseCsv } from '@/test/csv';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'concord-cli-'));
const env = { ...process.env, CONCORD_DB: path.join(dir, 'cli.db') };
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A process of its own per command: what the exit code and the two streams of `concord` itself are. */
function concordProcess(args: string[], input?: string) {
  const r = spawnSync(process.execPath, ['lib/cli/bin.mjs', ...args], { env, input, encoding: 'utf8' });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/**
 * The same, answered by one `concord batch` process for the file (test/cli-batch.ts): each command runs as alone
 * (lib/cli/batch.test.ts holds them equal) without a second of start-up each.
 */
function concord(args: string[], input?: string) {
  const r = runInBatch(env, args, input);
  return { code: r.code, out: r.stdout, err: r.stderr };
}

describe('the concord command', () => {
  it('runs a flow review study end to end on the same code as the app', () => {
    expect(concord(['user', 'add', 'rev1', '--role', 'annotator'], 'a-good-password\n').code).toBe(0);
    const created = concord(['study', 'create', '--kind', 'flow_review', '--name', 'CLI study', '--pay-rate', '0.25', '--json']);
    expect(created.code).toBe(0);
    const { id } = JSON.parse(created.out);
    expect(id).toBeGreaterThan(0);

    const imported = concord([
      'import',
      'items',
      '--study',
      String(id),
      '--format',
      'mathdial',
      path.join(publicDataDir(), 'mathdial', 'test.jsonl'),
    ]);
    expect(imported.code).toBe(0);
    expect(imported.out).toContain('Imported 599 new item(s)');

    expect(concord(['study', 'members', String(id), 'rev1']).code).toBe(0);
    expect(concord(['study', 'open', String(id)]).out).toContain('599 items');
    const report = JSON.parse(concord(['report', 'flows', '--study', String(id), '--json']).out);
    expect(report).toMatchObject({ items: 599, submitted: 0, verified: 0, truncated: 0, discarded: 0, discardReasons: {} });
    expect(report.reviewers).toEqual([expect.objectContaining({ username: 'rev1', submitted: 0, activeSeconds: 0, payout: 0 })]);
    const exported = concord(['export', 'flows', '--study', String(id), '--what', 'decisions', '--format', 'csv']);
    expect(parseCsv(exported.out)).toEqual([
      ['item', 'reviewer', 'decision', 'after_step', 'reasons', 'note', 'active_seconds', 'submitted_at'],
    ]);
  });

  it('refuses a bad file on stderr with line and field, exits non-zero and writes nothing', () => {
    const { id } = JSON.parse(concord(['study', 'create', '--kind', 'flow_review', '--name', 'Bad', '--json']).out);
    const file = path.join(dir, 'bad.jsonl');
    fs.writeFileSync(
      file,
      [
        '{"id":"a","problem":{"text":"p"},"steps":[{"speaker":"tutor","text":"t"}]}',
        '{"id":"b","problem":{"text":"p"},"steps":[]}',
        '[1,',
      ].join('\n'),
    );
    const r = concord(['import', 'items', '--study', String(id), file]);
    expect(r.code).toBe(1);
    expect(r.err).toContain('Nothing was imported');
    expect(r.err).toMatch(/line 2, steps: /);
    expect(r.err).toMatch(/line 3: /);
    expect(JSON.parse(concord(['report', 'flows', '--study', String(id), '--json']).out).items).toBe(0);
  });

  it('backs up the database online and the copy restores', () => {
    const file = path.join(dir, 'backup.db');
    const r = concord(['backup', file]);
    expect(r.code).toBe(0);
    expect(r.out).toContain('integrity ok');
    expect(concord(['backup', file]).err).toContain('already exists');
    // The copy works as a database: the same studies are there.
    const restored = spawnSync(process.execPath, ['lib/cli/bin.mjs', 'report', 'flows', '--study', '1', '--json'], {
      env: { ...env, CONCORD_DB: file },
      encoding: 'utf8',
    });
    expect(JSON.parse(restored.stdout).items).toBe(599);

    // restore: into a new file; over an existing one only with --force, the old one kept beside it
    const target = path.join(dir, 'restored', 'concord.db');
    const r1 = concord(['restore', file, '--to', target]);
    expect(r1.code).toBe(0);
    expect(r1.out).toContain(`into ${target}`);
    const again = concord(['restore', file, '--to', target]);
    expect(again.code).toBe(1);
    expect(again.err).toContain('already exists');
    const forced = concord(['restore', file, '--to', target, '--force']);
    expect(forced.code).toBe(0);
    expect(forced.out).toMatch(/kept as .*concord\.db\.before-restore-/);
    const notADb = path.join(dir, 'notes.txt');
    fs.writeFileSync(notADb, 'not a database\n'.repeat(200));
    const refused = concord(['restore', notADb, '--to', path.join(dir, 'other.db')]);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/concord restore: .*notes\.txt/);
    expect(fs.existsSync(path.join(dir, 'other.db'))).toBe(false);
  });

  it('combines judge runs by majority into a new run, lists it with its recipe, and refuses a rule pairwise labels cannot take', () => {
    const { id } = JSON.parse(concord(['study', 'create', '--kind', 'pairwise', '--name', 'Combine', '--json']).out);
    const items = path.join(dir, 'combine-items.jsonl');
    const ids = ['c1', 'c2', 'c3', 'c4'];
    fs.writeFileSync(
      items,
      ids
        .map((item) => JSON.stringify({ id: item, problem: 'p', a: { source: 'm', text: 'A' }, b: { source: 'ref', text: 'B' } }))
        .join('\n'),
    );
    expect(concord(['import', 'items', '--study', String(id), items]).code).toBe(0);
    // Per item, the overall verdicts of runs x, y, z: c1 win by two of three, c2 a three-way tie, c3 unanimous, c4 only x and y.
    const verdicts: Record<string, string[]> = {
      x: ['win', 'win', 'tie', 'lose'],
      y: ['win', 'tie', 'tie', 'lose'],
      z: ['lose', 'lose', 'tie'],
    };
    for (const [run, labels] of Object.entries(verdicts)) {
      const file = path.join(dir, `combine-${run}.jsonl`);
      fs.writeFileSync(file, labels.map((l, k) => JSON.stringify({ item: ids[k], judge: run, labels: { overall: l } })).join('\n'));
      expect(concord(['import', 'judge', '--study', String(id), file]).code).toBe(0);
    }
    const combined = concord([
      'judge',
      'combine',
      '--study',
      String(id),
      '--runs',
      'x,y,z',
      '--rule',
      'majority',
      '--name',
      'xyz',
      '--json',
    ]);
    expect(combined.code).toBe(0);
    expect(JSON.parse(combined.out)).toEqual({
      studyId: id,
      run: 'xyz',
      recipe: { rule: 'majority', runs: ['x', 'y', 'z'], missing: 'unjudged', counts: { pairs: 4, combined: 2, tie: 1, missing: 1 } },
    });
    const listed = concord(['judge', 'runs', '--study', String(id)]);
    expect(listed.out).toContain(
      'xyz: 2 verdicts, 0 unreadable — combined, majority of x, y, z: 2 of 4 item × criterion pairs combined, left unjudged: 1 tied, 1 missing a verdict',
    );
    // The combined run is a judge run like the others: the alignment report reads it.
    const alignment = JSON.parse(
      concord(['report', 'alignment', '--study', String(id), '--judge', 'xyz', '--bootstrap', '0', '--json']).out,
    );
    expect(alignment.judge).toBe('xyz');

    const refused = concord(['judge', 'combine', '--study', String(id), '--runs', 'x,y', '--rule', 'all', '--name', 'strict']);
    expect(refused.code).not.toBe(0);
    expect(refused.err).toContain('desired label');
    const again = concord(['judge', 'combine', '--study', String(id), '--runs', 'x,y', '--rule', 'majority', '--name', 'xyz']);
    expect(again.code).not.toBe(0);
    expect(again.err).toContain('already exists');
    expect(JSON.parse(concord(['judge', 'runs', '--study', String(id), '--json']).out).runs.map((r: { name: string }) => r.name)).toEqual([
      'x',
      'xyz',
      'y',
      'z',
    ]);
  });

  it('explains usage errors', () => {
    expect(concordProcess(['study', 'open', 'abc']).err).toContain('is not a study id');
    expect(concordProcess(['nonsense']).code).toBe(2);
    expect(concordProcess(['import', 'items', '--study', '1', '--bogus', 'x']).code).toBe(2);
  });
});
