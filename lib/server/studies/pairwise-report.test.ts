import { beforeAll, describe, expect, it } from 'vitest';
import { makeUser, useTestDatabase, writeTemp } from '@/test/db';
import type { Actor } from '../actor';
import { agreementReport } from '../analytics/agreement';
import { importItems } from '../imports/imports';
import { importAnnotations } from '../imports/prior-annotations';
import { pairwiseReport } from './pairwise-report';
import { createStudy, openStudy, setStudyMembers } from './studies';

/* The study page's agreement table and the agreement dashboard use one definition of percent agreement. */

const { dir } = useTestDatabase();
let lead: Actor;
const lines = (rows: object[]) => rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
const pair = (id: string) => ({ id, problem: `p ${id}`, a: { source: 'm', text: 'a' }, b: { source: 'r', text: 'b' } });

beforeAll(async () => {
  lead = await makeUser('lead', 'lead');
  await makeUser('adj');
});

describe('percent agreement on the study page', () => {
  it('is the mean share of agreeing label pairs per item, the same as the dashboard, beside the share of unanimous items', () => {
    const id = createStudy(lead, { kind: 'pairwise', name: 'three raters', seed: 1, reviewersPerItem: 3, groundTruthRule: 'majority' }).id;
    importItems(lead, id, writeTemp(dir, 'items.jsonl', lines(['i1', 'i2', 'i3', 'i4'].map(pair))), 'concord');
    // i1 unanimous (1 of 1 pairs), i2 two to one (1 of 3 pairs), i3 three ways (0 of 3), i4 two to one (1 of 3).
    const votes: [string, string[]][] = [
      ['i1', ['win', 'win', 'win']],
      ['i2', ['win', 'win', 'tie']],
      ['i3', ['win', 'tie', 'lose']],
      ['i4', ['lose', 'tie', 'lose']],
    ];
    const prior = votes.flatMap(([item, ls]) => ls.map((l, k) => ({ item, annotator: `r${k + 1}`, labels: { overall: l } })));
    importAnnotations(lead, id, writeTemp(dir, 'prior.jsonl', lines(prior)), 'concord');
    setStudyMembers(lead, id, { usernames: [], adjudicator: 'adj' });
    openStudy(lead, id);

    const row = pairwiseReport(lead, id).agreement.find((a) => a.criterion === 'overall')!;
    const expected = (1 + 1 / 3 + 0 + 1 / 3) / 4;
    expect(row.items).toBe(4);
    expect(row.percentAgreement).toBeCloseTo(expected, 12);
    expect(row.unanimous).toBe(1 / 4);
    const dashboard = agreementReport(lead, id, { bootstrap: 0 }).criteria.find((c) => c.criterion === 'overall')!;
    expect(dashboard.percentAgreement.value).toBeCloseTo(row.percentAgreement!, 12);
  });
});
