import { beforeAll, describe, expect, it } from 'vitest';
import { makeUser, useTestDatabase, writeTemp } from '@/test/db';
import { flow, pair } from '@/test/hostile-corpus';
import type { Actor } from '../actor';
import { exportGroundTruth } from '../ground-truth/ground-truth';
import { importItems } from '../imports/imports';
import { getAdjudicationQueue, submitAdjudication } from '../review/adjudication';
import { getFlowAssignment, getQueue, submitFlowReview } from '../review/flow-review';
import { getJudgeAssignment, submitJudgment } from '../review/judging';
import { exportFlows } from './exports';
import { createStudy, openStudy, setStudyCriteria, setStudyMembers } from './studies';

/*
 * A note or rationale with a line break inside: the cell is quoted, so a spreadsheet keeps it whole, but an
 * importer that ignores quotes (or a person pasting the file) reads each physical line on its own, and a line
 * that starts with a formula character runs as one. Every physical line of the decisions and ground-truth CSV
 * must start harmlessly.
 */

const { dir } = useTestDatabase();
let n = 0;
const rid = () => `formula-lines-${String(++n).padStart(4, '0')}`;

// After LF, after CRLF, after a lone CR; each with a different formula character.
const HOSTILE = ['x\n=HYPERLINK("http://evil.example","click")', 'y\r\n+SUM(1;2)', 'z\r@cmd', 'w\n-2+3'];

/** The physical lines of a file, split wherever a CR, an LF or a CRLF ends one, quotes or not. */
const physicalLines = (csv: string) => csv.split(/\r\n|\r|\n/);

function expectNoFormulaLine(csv: string) {
  const lines = physicalLines(csv);
  expect(lines.length).toBeGreaterThan(HOSTILE.length);
  for (const [i, line] of lines.entries()) expect(line, `line ${i + 1}: ${JSON.stringify(line)}`).not.toMatch(/^[=+\-@\t]/);
}

let lead: Actor;
beforeAll(async () => {
  lead = await makeUser('formulalead', 'lead');
});

describe('CSV exports with a formula after a line break inside a cell', () => {
  it('decisions: a note "x\\n=HYPERLINK(…)" gives no physical line starting with =, and keeps the text', async () => {
    const reviewer = await makeUser('formularev');
    const study = createStudy(lead, { kind: 'flow_review', name: 'Formula lines', seed: 4 }).id;
    const items = HOSTILE.map((_, i) => JSON.stringify(flow(`fl-${i}`)));
    importItems(lead, study, writeTemp(dir, 'formula-flows.jsonl', items.join('\n')), 'concord');
    setStudyMembers(lead, study, { usernames: ['formularev'] });
    openStudy(lead, study);
    for (const note of HOSTILE) {
      const a = getFlowAssignment(reviewer, getQueue(reviewer, study).currentId!);
      submitFlowReview(reviewer, {
        assignmentId: a.assignmentId,
        requestId: rid(),
        activeMs: 1000,
        decision: { decision: 'verify', note },
      });
    }
    const csv = [...exportFlows(lead, study, 'decisions', 'csv').lines].join('');
    expectNoFormulaLine(csv);
    expect(csv).toContain(`x\n'=HYPERLINK(""http://evil.example"",""click"")`);
    expect(csv).toContain("y\r\n'+SUM(1;2)");
  });

  it('ground truth: an adjudicator’s rationale "x\\n=HYPERLINK(…)" gives no physical line starting with =', async () => {
    const [r1, r2, adj] = await Promise.all(['formgt1', 'formgt2', 'formgtadj'].map((u) => makeUser(u)));
    const study = createStudy(lead, { kind: 'pairwise', name: 'Formula truth', seed: 5 }).id;
    setStudyCriteria(lead, study, []); // overall only
    const items = HOSTILE.map((_, i) => JSON.stringify(pair(`gt-${i}`)));
    importItems(lead, study, writeTemp(dir, 'formula-pairs.jsonl', items.join('\n')), 'concord');
    setStudyMembers(lead, study, { usernames: ['formgt1', 'formgt2'], adjudicator: 'formgtadj' });
    openStudy(lead, study);
    // One always ties, the other always picks Response 1: every item is disputed on overall.
    for (const [who, choice] of [
      [r1, 'tie'],
      [r2, 'r1'],
    ] as const) {
      for (let id = getQueue(who, study).currentId; id; id = getQueue(who, study).currentId) {
        const a = getJudgeAssignment(who, id);
        submitJudgment(who, { assignmentId: a.assignmentId, requestId: rid(), activeMs: 1000, choices: { overall: choice } });
      }
    }
    const queue = getAdjudicationQueue(adj, study);
    expect(queue.total).toBe(HOSTILE.length);
    queue.items.forEach((item, i) => {
      // Tie overrules nobody (one reviewer tied), but a rationale is kept all the same.
      submitAdjudication(adj, {
        studyId: study,
        itemId: item.itemId,
        requestId: rid(),
        choices: { overall: 'tie' },
        rationales: { overall: HOSTILE[i] },
      });
    });
    const csv = [...exportGroundTruth(lead, study, 'csv').lines].join('');
    expectNoFormulaLine(csv);
    expect(csv).toContain("z\r'@cmd");
    expect(csv).toContain("w\n'-2+3");
  });
});
