import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getDb } from '@/db/client';
import { findStudy } from '@/db/queries/studies';
import { alignmentFromConfusion } from '@/lib/stats/rubric';
import { PAIRWISE_CRITERION_TEMPLATE } from '@/lib/validation/judge-templates';
import { buildStudy, codeOf, labels } from '@/test/analytics-fixtures';
import { makeUser, useTestDatabase } from '@/test/db';
import { startStandIn, type StandIn } from '@/test/judge-standin';
import { buildRubricStudy } from '@/test/rubric-fixtures-reports';
import type { Actor } from '../actor';
import { compareJudgeRuns, compareRubricJudgeRuns } from './compare';
import { createJudgeEndpoint } from './endpoints';
import { judgeRunDisagreements, newTemplateFromDisagreements } from './examples';
import { judgeRunStatus, launchJudgeRun, listJudgeTemplates } from './judges';
import { parseTemplate, promptHash, renderRequest } from './plan';
import { runJudge } from './runner';

/*
 * Prompts from disagreements (issue 28, point 4): a pairwise study of 14 items whose ground truth two annotators
 * agree on, a run launched against the local stand-in judge (its verdicts follow the prompt's hash, so it disagrees
 * with the people on some items), a new template version with worked examples taken from those disagreements, a run
 * of that version, and the comparison of the two with the examples left out.
 */

const { dir } = useTestDatabase();
const sql = () => getDb().$client;
const CRITERIA = ['clarity', 'overall'];
const LETTERS = ['WW', 'LT', 'TL', 'WL', 'LW', 'TT', 'WT', 'LL', 'TW', 'WW', 'LT', 'TL', 'WL', 'LW'];
const ITEMS = LETTERS.map((l, i) => ({ id: `q${String(i).padStart(2, '0')}`, letters: l }));
const SETTLED = new Map(
  ITEMS.flatMap((it) => CRITERIA.map((c, k) => [`${it.id}:${c}`, labels(CRITERIA, it.letters)[CRITERIA[k]]] as const)),
);

let lead: Actor, annotator: Actor;
let studyId: number;
let standIn: StandIn;

beforeAll(async () => {
  standIn = await startStandIn();
  createJudgeEndpoint(await makeUser('admin', 'admin'), { name: 'stand-in', baseUrl: standIn.url, models: ['m'], priceIn: 1, priceOut: 2 });
  lead = await makeUser('lead', 'lead');
  annotator = await makeUser('ann');
  studyId = buildStudy(lead, dir, {
    name: 'Examples',
    reviewersPerItem: 2,
    catalog: [{ id: 'clarity', name: 'Clarity', level: 'general', description: 'Which reply is clearer?' }],
    items: ITEMS.map((it) => ({ id: it.id, model: 'm1' })),
    annotations: ITEMS.flatMap((it) => ['ann1', 'ann2'].map((a) => ({ item: it.id, annotator: a, labels: labels(CRITERIA, it.letters) }))),
    judges: [{ name: 'imported', lines: ITEMS.map((it) => ({ item: it.id, labels: labels(CRITERIA, 'WW') })) }],
  });
  const r = launchJudgeRun(lead, studyId, { name: 'v1', endpoint: 'stand-in', model: 'm', template: PAIRWISE_CRITERION_TEMPLATE });
  expect((await runJudge(r.runId)).state).toBe('done');
}, 60_000);
afterAll(() => standIn.close());

/** The run's verdicts in the order a, b, read straight from the table, against the labels the annotators gave. */
function disagreedByHand(run: string): Map<string, string[]> {
  const rows = sql()
    .prepare(
      `SELECT i.external_id AS item, l.criterion, l.label FROM judge_labels l JOIN judge_runs r ON r.id = l.run_id
        JOIN items i ON i.id = l.item_id WHERE r.name = ? AND l.swapped = 0 ORDER BY i.position`,
    )
    .all(run) as { item: string; criterion: string; label: string }[];
  const out = new Map<string, string[]>();
  for (const r of rows) if (SETTLED.get(`${r.item}:${r.criterion}`) !== r.label) out.set(r.item, [...(out.get(r.item) ?? []), r.criterion]);
  for (const [k, cs] of out)
    out.set(
      k,
      CRITERIA.filter((c) => cs.includes(c)),
    );
  return out;
}

const ANSWER = { win: 'first', lose: 'second', tie: 'tie' } as const;

describe('worked examples from a run’s disagreements', () => {
  it('lists exactly the items where the judge’s verdict differs from the settled ground truth', () => {
    const byHand = disagreedByHand('v1');
    expect(byHand.size).toBeGreaterThanOrEqual(5); // the stand-in disagrees often enough for the draws below
    const d = judgeRunDisagreements(lead, studyId, 'v1');
    expect(d.template).toEqual({ name: 'pairwise-criterion', version: 1 });
    expect(d.items).toBe(byHand.size);
    expect(d.list.map((x) => [x.item, x.criteria.map((c) => c.id)])).toEqual([...byHand]);
    for (const x of d.list) for (const c of x.criteria) expect(c.settled).toBe(SETTLED.get(`${x.item}:${c.id}`));
  });

  it('makes the next version with k examples drawn by the seed: each the item as the template renders it, answered with the settled label', () => {
    const byHand = disagreedByHand('v1');
    const made = newTemplateFromDisagreements(lead, studyId, { run: 'v1', k: 3, seed: 7 });
    expect(made.template).toMatchObject({ name: 'pairwise-criterion', version: 2 });
    expect(made).toMatchObject({ from: { run: 'v1', template: { name: 'pairwise-criterion', version: 1 } }, disagreements: byHand.size });
    expect(made.chosen).toEqual({ by: 'seed', seed: 7 });
    expect(made.examples).toHaveLength(3);
    const body = parseTemplate(JSON.parse(made.template.body));
    const study = findStudy(getDb(), studyId)!;
    for (const e of body.examples!) {
      // an item the judge got wrong, on the first criterion it got wrong there
      expect(byHand.get(e.item)?.[0]).toBe(e.criterion);
      const payload = JSON.parse(
        sql().prepare('SELECT payload FROM items WHERE study_id = ? AND external_id = ?').pluck().get(studyId, e.item) as string,
      );
      const messages = renderRequest(study, parseTemplate(PAIRWISE_CRITERION_TEMPLATE), payload, {
        criterion: e.criterion,
        swapped: false,
      });
      expect(e.prompt).toBe(messages.at(-1)!.content);
      expect(JSON.parse(e.answer)).toEqual({ winner: ANSWER[SETTLED.get(`${e.item}:${e.criterion}`)!] });
    }
    // The same seed gives the same items (and so the same version); another seed other items.
    expect(newTemplateFromDisagreements(lead, studyId, { run: 'v1', k: 3, seed: 7 }).template.id).toBe(made.template.id);
    const other = newTemplateFromDisagreements(lead, studyId, { run: 'v1', k: 3, seed: 8 });
    expect(other.examples.map((e) => e.item)).not.toEqual(made.examples.map((e) => e.item));
    expect(other.template.version).toBe(3);
  });

  it('takes the items a lead ticked, and refuses an item the judge did not get wrong', () => {
    const byHand = [...disagreedByHand('v1').keys()];
    const made = newTemplateFromDisagreements(lead, studyId, { run: 'v1', items: [byHand[1], byHand[0]] });
    expect(made.chosen).toEqual({ by: 'lead' });
    expect(made.examples.map((e) => e.item)).toEqual([byHand[0], byHand[1]]);
    const right = ITEMS.map((it) => it.id).find((id) => !byHand.includes(id))!;
    expect(codeOf(() => newTemplateFromDisagreements(lead, studyId, { run: 'v1', items: [right] }))).toBe('invalid');
    expect(codeOf(() => newTemplateFromDisagreements(lead, studyId, { run: 'v1', k: byHand.length + 1 }))).toBe('invalid');
    expect(codeOf(() => newTemplateFromDisagreements(lead, studyId, { run: 'v1', k: 2, items: [byHand[0]] }))).toBe('invalid');
    expect(codeOf(() => newTemplateFromDisagreements(lead, studyId, { run: 'imported', k: 1 }))).toBe('invalid');
    expect(codeOf(() => newTemplateFromDisagreements(lead, studyId, { run: 'nope', k: 1 }))).toBe('not_found');
    expect(codeOf(() => newTemplateFromDisagreements(annotator, studyId, { run: 'v1', k: 1 }))).toBe('forbidden');
    expect(codeOf(() => judgeRunDisagreements(annotator, studyId, 'v1'))).toBe('forbidden');
  });

  it('runs the new version against the stand-in judge with the examples in every prompt, and the comparison leaves them out', async () => {
    const v2 = listJudgeTemplates(lead, studyId).find((t) => t.version === 2)!;
    const r = launchJudgeRun(lead, studyId, { name: 'v2', endpoint: 'stand-in', model: 'm', template: v2.body });
    expect((await runJudge(r.runId)).state).toBe('done');
    expect(judgeRunStatus(lead, r.runId).template).toEqual({ name: 'pairwise-criterion', version: 2 });
    // What the stand-in received for an item: the system text, each example and its answer as turns, then the item.
    const study = findStudy(getDb(), studyId)!;
    const t = parseTemplate(JSON.parse(v2.body));
    const payload = JSON.parse(
      sql().prepare("SELECT payload FROM items WHERE study_id = ? AND external_id = 'q05'").pluck().get(studyId) as string,
    );
    const messages = renderRequest(study, t, payload, { criterion: 'clarity', swapped: true });
    expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user', 'assistant', 'user', 'assistant', 'user']);
    expect(messages[2].content).toBe(t.examples![0].answer);
    expect(standIn.counts.get(promptHash(messages))).toBe(1);

    const examples = t.examples!.map((e) => e.item);
    const c = compareJudgeRuns(lead, studyId, ['v1', 'v2']);
    expect(c.leftOut).toMatchObject({ items: 3, because: [{ run: 'v2', template: 'pairwise-criterion v2', items: 3 }] });
    expect(c.leftOut!.note).toBe(
      "3 items are worked examples in version 2 of pairwise-criterion (run v2): these 3 items are left out of every run's alignment and κ here.",
    );
    // Every run scored on the other 11 items × 2 criteria, by hand from the table.
    for (const run of c.runs) {
      const wrong = disagreedByHand(run.name);
      const kept = ITEMS.filter((it) => !examples.includes(it.id));
      const misses = kept.reduce((s, it) => s + (wrong.get(it.id)?.length ?? 0), 0);
      expect(run.n).toBe(kept.length * 2);
      expect(run.alignment).toBeCloseTo(1 - misses / (kept.length * 2), 12);
      const clarityMisses = kept.filter((it) => wrong.get(it.id)?.includes('clarity')).length;
      expect(run.byCriterion.clarity).toBeCloseTo(1 - clarityMisses / kept.length, 12);
      expect(run.kappa).not.toBeNull();
      expect(run.cost).toBeGreaterThan(0);
    }
    // The examples make every prompt of v2 longer: more tokens, more cost.
    expect(c.runs[1].tokensIn!).toBeGreaterThan(c.runs[0].tokensIn!);
    // Without a run carrying examples, nothing is left out and the scores are the alignment report's.
    const alone = compareJudgeRuns(lead, studyId, ['v1']);
    expect(alone.leftOut).toBeNull();
    expect(alone.runs[0].n).toBe(ITEMS.length * 2);
  }, 60_000);

  it('writes each example’s answer in the template’s own format: a pattern with a map, and a JSON object for criteria judged together', async () => {
    // The run's answers are read by a pattern through a map; a second stand-in answers every criterion at once.
    const pattern = {
      ...PAIRWISE_CRITERION_TEMPLATE,
      name: 'pattern',
      answer: { pattern: '"winner": "(first|second|tie|reply 1|reply 2)"', map: { 'reply 1': 'first', 'reply 2': 'second' } },
    };
    const together = { ...PAIRWISE_CRITERION_TEMPLATE, name: 'together', together: true, answer: { json: 'verdicts' } };
    const both = await startStandIn({ says: '{"verdicts": {"clarity": "first", "overall": "second"}}' });
    try {
      createJudgeEndpoint(await makeUser('admin2', 'admin'), { name: 'together-stand-in', baseUrl: both.url, models: ['m'] });
      for (const [name, template, endpoint] of [
        ['by-pattern', pattern, 'stand-in'],
        ['together', together, 'together-stand-in'],
      ] as const) {
        const r = launchJudgeRun(lead, studyId, { name, endpoint, model: 'm', template, bothOrders: false });
        expect((await runJudge(r.runId)).state).toBe('done');
      }
    } finally {
      await both.close();
    }
    // A pattern that needs text around the verdict: the pattern's match in one of the judge's own answers, with the
    // settled label as the judge writes it (first / second / tie) in place of its verdict.
    const p = parseTemplate(JSON.parse(newTemplateFromDisagreements(lead, studyId, { run: 'by-pattern', k: 2, seed: 1 }).template.body));
    for (const e of p.examples!) expect(e.answer).toBe(`"winner": "${ANSWER[SETTLED.get(`${e.item}:${e.criterion}`)!]}"`);
    // Together: one JSON object under the answer's key with every criterion's settled label.
    const t = newTemplateFromDisagreements(lead, studyId, { run: 'together', k: 2, seed: 1 });
    const body = parseTemplate(JSON.parse(t.template.body));
    for (const e of body.examples!) {
      expect(e.criterion).toBe('*');
      expect(JSON.parse(e.answer)).toEqual({
        verdicts: Object.fromEntries(CRITERIA.map((c) => [c, ANSWER[SETTLED.get(`${e.item}:${c}`)!]])),
      });
    }
  }, 60_000);

  it('refuses worked examples naming items the study does not have', async () => {
    const v2 = JSON.parse(listJudgeTemplates(lead, studyId).find((t) => t.version === 2)!.body);
    v2.examples[0].item = 'not-an-item';
    expect(codeOf(() => launchJudgeRun(lead, studyId, { name: 'bad', endpoint: 'stand-in', model: 'm', template: v2 }))).toBe('invalid');
  });
});

/*
 * The same on a rubric study (issue 28, point 4 for rubric studies): twelve replies whose ground truth two reviewers
 * agree on, on two dimensions with the same labels — "mi" with a lenient map, "tell" without — judged by the stand-in
 * through a pattern that maps first / second / tie to Yes / No / To some extent. Each reply has its own tutor, so each
 * prompt (and so each stand-in verdict) is its own.
 */
describe('worked examples from a rubric run’s disagreements', () => {
  const LABELS = ['No', 'To some extent', 'Yes'];
  const DIMS = ['mi', 'tell'];
  const RUBRIC_ITEMS = Array.from({ length: 12 }, (_, i) => ({
    id: `r${String(i).padStart(2, '0')}`,
    mi: LABELS[i % 3],
    tell: LABELS[(i >> 1) % 3],
  }));
  const truth = (item: string, d: string) => RUBRIC_ITEMS.find((it) => it.id === item)![d as 'mi' | 'tell'];
  const SAYS = { Yes: 'first', No: 'second', 'To some extent': 'tie' } as Record<string, string>;
  const TEMPLATE = {
    name: 'rubric-words',
    user: 'Reply: {{reply}}\nQuestion: {{criterion.name}}\nLabels: {{labels}}',
    answer: { pattern: '"winner": "(first|second|tie)"', map: { first: 'Yes', second: 'No', tie: 'To some extent' } },
  };
  let rubric: number;

  beforeAll(async () => {
    rubric = buildRubricStudy(lead, {
      name: 'Rubric examples',
      catalog: [
        { id: 'mi', name: 'Notices the mistake', labels: LABELS, desired: 'Yes', lenient: { 'To some extent': 'Yes' } },
        { id: 'tell', name: 'Tells the student what to do', labels: LABELS, desired: 'Yes' },
      ],
      reviewersPerItem: 2,
      items: RUBRIC_ITEMS.map((it) => ({ id: it.id, source: `tutor-${it.id}` })),
      annotations: RUBRIC_ITEMS.flatMap((it) =>
        ['alice', 'bob'].map((a) => ({ item: it.id, annotator: a, labels: { mi: it.mi, tell: it.tell } })),
      ),
      judges: [],
    });
    const r = launchJudgeRun(lead, rubric, { name: 'w1', endpoint: 'stand-in', model: 'm', template: TEMPLATE });
    expect((await runJudge(r.runId)).state).toBe('done');
  }, 60_000);

  /** A rubric run's sample-1 verdicts straight from the table: item → dimension → label. */
  function verdictsByHand(run: string): Map<string, Record<string, string>> {
    const rows = sql()
      .prepare(
        `SELECT i.external_id AS item, l.dimension, l.label FROM rubric_judge_labels l JOIN judge_runs r ON r.id = l.run_id
          JOIN items i ON i.id = l.item_id WHERE r.name = ? AND r.study_id = ? AND l.sample = 1 ORDER BY i.position`,
      )
      .all(run, rubric) as { item: string; dimension: number; label: number }[];
    const out = new Map<string, Record<string, string>>();
    for (const r of rows) out.set(r.item, { ...out.get(r.item), [DIMS[r.dimension]]: LABELS[r.label] });
    return out;
  }
  const wrongByHand = (run: string) =>
    new Map(
      [...verdictsByHand(run)]
        .map(([item, v]) => [item, DIMS.filter((d) => v[d] !== undefined && v[d] !== truth(item, d))] as const)
        .filter(([, ds]) => ds.length > 0),
    );

  it('lists the replies where the judge’s label on a dimension differs from the settled one', () => {
    const byHand = wrongByHand('w1');
    expect(byHand.size).toBeGreaterThanOrEqual(4);
    const d = judgeRunDisagreements(lead, rubric, 'w1');
    expect(d.items).toBe(byHand.size);
    expect(d.list.map((x) => [x.item, x.criteria.map((c) => c.id)])).toEqual([...byHand]);
    for (const x of d.list)
      for (const c of x.criteria) {
        expect(c.settled).toBe(truth(x.item, c.id));
        expect(c.judge).toBe(verdictsByHand('w1').get(x.item)![c.id]);
      }
  });

  it('makes a version whose examples are rendered as the rubric template renders them and answered in its format, run and compared without them', async () => {
    const byHand = wrongByHand('w1');
    const made = newTemplateFromDisagreements(lead, rubric, { run: 'w1', k: 3, seed: 5 });
    expect(made.template).toMatchObject({ name: 'rubric-words', version: 2 });
    expect(made.disagreements).toBe(byHand.size);
    const body = parseTemplate(JSON.parse(made.template.body));
    const study = findStudy(getDb(), rubric)!;
    expect(body.examples).toHaveLength(3);
    for (const e of body.examples!) {
      expect(byHand.get(e.item)?.[0]).toBe(e.criterion);
      const payload = JSON.parse(
        sql().prepare('SELECT payload FROM items WHERE study_id = ? AND external_id = ?').pluck().get(rubric, e.item) as string,
      );
      expect(e.prompt).toBe(
        renderRequest(study, parseTemplate(TEMPLATE), payload, { criterion: e.criterion, swapped: false }).at(-1)!.content,
      );
      // The settled label as the judge writes it, in the pattern's match of one of its own answers.
      expect(e.answer).toBe(`"winner": "${SAYS[truth(e.item, e.criterion)]}"`);
    }
    expect(made.examples.map((e) => e.settled)).toEqual(
      body.examples!.map((e) => [{ criterion: e.criterion, label: truth(e.item, e.criterion) }]),
    );

    const r = launchJudgeRun(lead, rubric, { name: 'w2', endpoint: 'stand-in', model: 'm', template: made.template.body });
    expect((await runJudge(r.runId)).state).toBe('done');
    // The stand-in received each reply with the three examples as turns before it.
    const first = RUBRIC_ITEMS.find((it) => !body.examples!.some((e) => e.item === it.id))!;
    const payload = JSON.parse(
      sql().prepare('SELECT payload FROM items WHERE study_id = ? AND external_id = ?').pluck().get(rubric, first.id) as string,
    );
    const messages = renderRequest(study, body, payload, { criterion: 'tell', swapped: false });
    expect(messages.filter((m) => m.role === 'assistant').map((m) => m.content)).toEqual(body.examples!.map((e) => e.answer));
    expect(standIn.counts.get(promptHash(messages))).toBe(1);
    const examples = body.examples!.map((e) => e.item);
    const c = compareRubricJudgeRuns(lead, rubric, ['w1', 'w2']);
    expect(c.leftOut).toMatchObject({ items: 3, because: [{ run: 'w2', template: 'rubric-words v2', items: 3 }] });
    expect(c.leftOut!.note).toBe(
      "3 items are worked examples in version 2 of rubric-words (run w2): these 3 items are left out of every run's accuracy, macro-F1 and κ here.",
    );
    // Every run scored on the other 9 replies, by hand from the table: accuracy, and macro-F1 and κ of lib/stats
    // on the confusion counted here; lenient ("To some extent" as "Yes") on mi only.
    const kept = RUBRIC_ITEMS.filter((it) => !examples.includes(it.id));
    const fold = (l: string) => (l === 'To some extent' ? 'Yes' : l);
    const scored = (v: Map<string, Record<string, string>>, ds: string[], lenient: boolean) => {
      const labels = lenient ? ['No', 'Yes'] : LABELS;
      const confusion = labels.map(() => labels.map(() => 0));
      for (const it of kept)
        for (const d of ds) {
          const said = v.get(it.id)?.[d];
          if (said === undefined) continue;
          const [g, j] = lenient ? [fold(truth(it.id, d)), fold(said)] : [truth(it.id, d), said];
          confusion[labels.indexOf(g)][labels.indexOf(j)]++;
        }
      return alignmentFromConfusion(confusion, labels);
    };
    for (const run of c.runs) {
      const v = verdictsByHand(run.name);
      const all = scored(v, DIMS, false);
      expect(run.n).toBe(kept.length * 2);
      expect(run).toMatchObject({ n: all.n, alignment: all.alignmentRate.value, macroF1: all.macroF1.value, kappa: all.cohenKappa.value });
      // Not every dimension has a lenient map: no pooled lenient score, as the alignment report.
      expect(run).toMatchObject({ macroF1Lenient: null, kappaLenient: null });
      const mi = scored(v, ['mi'], false);
      const miLenient = scored(v, ['mi'], true);
      expect(run.byDimension.mi).toEqual({
        n: kept.length,
        alignment: mi.alignmentRate.value,
        macroF1: mi.macroF1.value,
        kappa: mi.cohenKappa.value,
        macroF1Lenient: miLenient.macroF1.value,
        kappaLenient: miLenient.cohenKappa.value,
      });
      const misses = kept.filter((it) => v.get(it.id)!.tell !== it.tell).length;
      expect(run.byDimension.tell).toMatchObject({ n: kept.length, macroF1Lenient: null, kappaLenient: null });
      expect(run.byDimension.tell.alignment).toBeCloseTo(1 - misses / kept.length, 12);
    }
    // Without a run carrying examples nothing is left out: every reply counts, as in the alignment report.
    const alone = compareRubricJudgeRuns(lead, rubric, ['w1']);
    expect(alone.leftOut).toBeNull();
    expect(alone.runs[0].n).toBe(RUBRIC_ITEMS.length * 2);
  }, 60_000);

  it('refuses worked examples naming replies the study does not have', () => {
    const template = { ...TEMPLATE, name: 'with-examples', examples: [{ item: 'nope', criterion: 'mi', prompt: 'p', answer: 'a' }] };
    expect(codeOf(() => launchJudgeRun(lead, rubric, { name: 'bad', endpoint: 'stand-in', model: 'm', template }))).toBe('invalid');
  });
});
