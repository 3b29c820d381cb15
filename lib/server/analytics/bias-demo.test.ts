import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import { publicDataDir } from '@/lib/io/public-data';
import { useTestDatabase } from '@/test/db';
import { seedDemo } from '../demo/seed';
import { cliActor } from '../system/system';
import { reportJson } from './json';
import { type ReportOptions, computeReport, reportFor } from './report';

/*
 * The bias report of both kinds, byte for byte as `concord report bias --json` printed it when each kind had its own
 * use-case (test/fixtures/bias-reports): the demo's PandaLM study (judge position rows, length bias, uncalibrated
 * runs), MRBench V3 read leniently (leniency, the length bias of the desired label) and AITutor-EvalKit.
 */
const DATA = publicDataDir();
const present = ['pandalm', 'mrbench', 'aitutor-evalkit'].every((d) => fs.existsSync(path.join(DATA, d)));
useTestDatabase();

const studyNamed = (name: string) =>
  getDb().$client.prepare('SELECT id, kind FROM studies WHERE name = ?').get(name) as { id: number; kind: 'pairwise' | 'rubric' };

/** What `concord report bias --study … --json` prints (lib/cli/format.ts `printJson`). */
function printed(studyName: string, o: ReportOptions): string {
  const { id, kind } = studyNamed(studyName);
  return `${JSON.stringify(reportJson(computeReport(cliActor(), id, reportFor(kind, 'bias')!, o)), null, 2)}\n`;
}

const fixture = (name: string) => fs.readFileSync(path.join('test/fixtures/bias-reports', name), 'utf8');

describe.skipIf(!present)(`the bias report of the demo studies (needs PandaLM, MRBench and AITutor-EvalKit under ${DATA})`, () => {
  beforeAll(async () => {
    await seedDemo();
  }, 120_000);

  it('is unchanged for a pairwise study', () => {
    expect(printed('PandaLM test set', {})).toBe(fixture('pandalm.json'));
  });

  it('is unchanged for a rubric study, strictly and leniently', () => {
    expect(printed('MRBench V3 dev set', { lenient: 'true' })).toBe(fixture('mrbench-lenient.json'));
    expect(printed('AITutor-EvalKit sample', {})).toBe(fixture('aitutor-evalkit.json'));
  });
});
