import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
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
 * The leaderboard and certification reports of both kinds, byte for byte as `concord report leaderboard --json` and
 * `concord report certify --json` print them, held by their SHA-256 (test/fixtures/leaderboard-reports/sha256.json,
 * README there; the reports themselves are ~700 kB of figures per item of the public datasets): the demo's PandaLM
 * study (a pairwise leaderboard under two tie policies, a certification of its first judge run), MRBench V3
 * and AITutor-EvalKit (a rubric leaderboard, a certification of the first judge run).
 * With CONCORD_WRITE_FIXTURES=1 it writes the hashes instead, for a change that means to change the reports' JSON. A
 * report that differs is written to a temporary file, named in the failure, to compare with the code of the commit
 * the hashes came from.
 */
const DATA = publicDataDir();
const present = ['pandalm', 'mrbench', 'aitutor-evalkit'].every((d) => fs.existsSync(path.join(DATA, d)));
const DIR = 'test/fixtures/leaderboard-reports';
const write = process.env.CONCORD_WRITE_FIXTURES === '1';
useTestDatabase();

const studyNamed = (name: string) =>
  getDb().$client.prepare('SELECT id, kind FROM studies WHERE name = ?').get(name) as { id: number; kind: 'pairwise' | 'rubric' };

/** The study's first judge run, the one a certification is asked about. */
const firstRun = (studyId: number) =>
  (getDb().$client.prepare('SELECT name FROM judge_runs WHERE study_id = ? ORDER BY id LIMIT 1').get(studyId) as { name: string }).name;

/**
 * What `concord report <dashboard> --study … --json` prints (lib/cli/format.ts `printJson`), with the time each
 * certified label was settled — when the demo was seeded — put as one placeholder: the rest is the same on every run.
 */
function printed(studyName: string, dashboard: 'leaderboard' | 'certify', o: (studyId: number) => ReportOptions): string {
  const { id, kind } = studyNamed(studyName);
  const json = `${JSON.stringify(reportJson(computeReport(cliActor(), id, reportFor(kind, dashboard)!, o(id))), null, 2)}\n`;
  return json.replace(/"settledAt": "[^"]+"/g, '"settledAt": "<when the demo was seeded>"');
}

const HASHES = path.join(DIR, 'sha256.json');
type Hashes = Record<string, { sha256: string; bytes: number }>;
const hashes = JSON.parse(fs.readFileSync(HASHES, 'utf8')) as Hashes;

function expectFixture(name: string, json: string) {
  const printedHash = { sha256: createHash('sha256').update(json).digest('hex'), bytes: Buffer.byteLength(json) };
  if (write) {
    hashes[name] = printedHash;
    fs.writeFileSync(HASHES, `${JSON.stringify(hashes, null, 2)}\n`);
  }
  const same = printedHash.sha256 === hashes[name]?.sha256;
  const kept = same ? '' : path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'concord-report-')), name);
  if (!same) fs.writeFileSync(kept, json);
  expect(printedHash, `${name} differs from the fixture's hash; the report printed now is in ${kept}`).toEqual(hashes[name]);
}

describe.skipIf(!present)(
  `the leaderboard and certification of the demo studies (needs PandaLM, MRBench and AITutor-EvalKit under ${DATA})`,
  () => {
    beforeAll(async () => {
      await seedDemo();
    }, 120_000);

    it('leaderboard: unchanged for a pairwise study under two tie policies', () => {
      expectFixture(
        'pandalm-leaderboard.json',
        printed('PandaLM test set', 'leaderboard', () => ({})),
      );
      expectFixture(
        'pandalm-leaderboard-ties-exclude.json',
        printed('PandaLM test set', 'leaderboard', () => ({ tiePolicy: 'exclude' })),
      );
    });

    it('leaderboard: unchanged for a rubric study', () => {
      expectFixture(
        'mrbench-leaderboard.json',
        printed('MRBench V3 dev set', 'leaderboard', () => ({})),
      );
      expectFixture(
        'aitutor-evalkit-leaderboard.json',
        printed('AITutor-EvalKit sample', 'leaderboard', () => ({})),
      );
    });

    it('certify: unchanged for a pairwise study', () => {
      expectFixture(
        'pandalm-certify.json',
        printed('PandaLM test set', 'certify', (id) => ({ judge: firstRun(id) })),
      );
    });

    it('certify: unchanged for a rubric study', () => {
      expectFixture(
        'mrbench-certify.json',
        printed('MRBench V3 dev set', 'certify', (id) => ({ judge: firstRun(id) })),
      );
      expectFixture(
        'aitutor-evalkit-certify.json',
        printed('AITutor-EvalKit sample', 'certify', (id) => ({ judge: firstRun(id) })),
      );
    });
  },
);
