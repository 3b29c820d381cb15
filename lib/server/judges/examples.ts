import 'server-only';
import * as z from 'zod';
import { getDb, type Db } from '@/db/client';
import * as q from '@/db/queries/judge-launches';
import * as examplesQ from '@/db/queries/judge-examples';
import type { StudyRow } from '@/db/queries/studies';
import { createRng } from '@/lib/stats';
import { respellAnswerMatch } from '@/lib/validation/answer-pattern';
import { MAX_WORKED_EXAMPLES, type JudgeTemplate, type WorkedExample, readVerdicts } from '@/lib/validation/judge-template';
import type { Actor } from '../actor';
import { audit } from '../accounts/audit';
import { invalid, notFound } from '../errors';
import { parseInput } from '../parse';
import { studyForStaff } from '../review/access';
import type { DisagreementsDto, ExamplesVersionDto } from './dto';
import { canGrade, disagreements, gradedRun, type Graded } from './graded';
import { storeTemplate, templateDto } from './judges';
import { TOGETHER, allowedLabels, assertJudgeable, judgesOf, parseTemplate, renderRequest } from './plan';

/*
 * Prompts from disagreements (issue 28, point 4; decision 0033): a new version of a run's template whose worked
 * examples are items where the run's judge disagreed with the settled ground truth, each shown as the template shows
 * an item and answered with the settled label in the template's own answer format. The items a version carries are
 * named in its body (`examples[].item`), and the comparison of runs leaves them out (compare.ts).
 */

/** The launched run `name` of the study and the template version it ran. */
function launchedRun(db: Db, study: StudyRow, name: string) {
  const run = q.runByName(db, study.id, name);
  if (!run) throw notFound(`A judge run named "${name}"`);
  if (!run.launched)
    throw invalid(`The judge run "${name}" was imported, so Concord has no template of it; make a new version from a run launched here.`);
  const template = q.templateById(db, q.findLaunch(db, run.id)!.templateId)!;
  return { runId: run.id, run: { id: run.id, name }, template };
}

function gradable(actor: Actor, studyId: number) {
  const db = getDb();
  const study = studyForStaff(db, actor, studyId);
  assertJudgeable(study);
  if (!canGrade(study)) throw invalid('The judge runs of this kind of study cannot carry worked examples.');
  return { db, study };
}

/** The criteria indexes of `g` the template judges (all when it names none). */
const judgedBy = (g: Graded, t: JudgeTemplate) =>
  new Set(g.criteria.flatMap((c, k) => (!t.criteria || t.criteria.includes(c.id) ? [k] : [])));

/** Per item index (in position order), the template's criteria on which the run's judge disagreed with ground truth. */
function disagreementsOf(g: Graded, t: JudgeTemplate): Map<number, number[]> {
  const judged = judgedBy(g, t);
  const out = new Map<number, number[]>();
  for (const [i, cs] of disagreements(g)) {
    const mine = cs.filter((c) => judged.has(c));
    if (mine.length) out.set(i, mine);
  }
  return out;
}

const LIST_LIMIT = 500;

/** The items where a launched run's judge disagreed with the settled ground truth (the first 500, for the picker). */
export function judgeRunDisagreements(actor: Actor, studyId: number, run: string): DisagreementsDto {
  const { db, study } = gradable(actor, studyId);
  const { run: launched, template } = launchedRun(db, study, run);
  const base = parseTemplate(JSON.parse(template.body));
  const g = gradedRun(db, study, launched);
  const found = disagreementsOf(g, base);
  const shown = [...found].slice(0, LIST_LIMIT);
  const ext = new Map(
    examplesQ
      .itemsWithIds(
        db,
        studyId,
        shown.map(([i]) => g.itemIds[i]),
      )
      .map((r) => [r.id, r.externalId]),
  );
  return {
    run,
    template: { name: template.name, version: template.version },
    items: found.size,
    list: shown.map(([i, cs]) => ({
      item: ext.get(g.itemIds[i])!,
      criteria: cs.map((c) => ({
        id: g.criteria[c].id,
        name: g.criteria[c].name,
        judge: g.criteria[c].labels[g.verdict[c * g.n + i]],
        settled: g.criteria[c].labels[g.gold[c * g.n + i]],
      })),
    })),
  };
}

const examplesInput = z
  .object({
    run: z.string().trim().min(1, { error: 'Name the judge run.' }),
    /** How many items to draw at random (with `seed`), or… */
    k: z.coerce.number().int().min(1).max(MAX_WORKED_EXAMPLES).optional(),
    seed: z.coerce
      .number()
      .int()
      .min(0)
      .max(2 ** 31 - 1)
      .default(1),
    /** …the items the lead chose, by id. */
    items: z.array(z.string().min(1)).min(1).max(MAX_WORKED_EXAMPLES).optional(),
  })
  .strict()
  .refine((v) => (v.k === undefined) !== (v.items === undefined), {
    error: 'Give either k (drawn with a seed) or the items chosen.',
    path: ['k'],
  });

/** `k` of the candidates drawn without replacement by a seeded Fisher–Yates shuffle, back in position order. */
function draw(candidates: readonly number[], k: number, seed: number): number[] {
  const a = [...candidates];
  const rng = createRng(seed);
  for (let j = 0; j < k; j++) {
    const r = j + rng.nextInt(a.length - j);
    [a[j], a[r]] = [a[r], a[j]];
  }
  return a.slice(0, k).sort((x, y) => x - y);
}

/** What the judge would answer to say `settled` on `criterion` when the replies are sent in the order a, b. */
function judgeLabel(study: StudyRow, criterion: string, settled: string): string {
  const judges = judgesOf(study);
  const label = allowedLabels(study, criterion).find((a) => judges.stored({ [criterion]: a }, false)[criterion] === settled);
  if (label === undefined) throw invalid(`The settled label "${settled}" of ${criterion} is not one a judge can answer.`);
  return label;
}

/**
 * The answer text that the template's own reader reads as `labels` (criterion → judge label): JSON under the
 * answer's key, or for a pattern the label (or a text its map turns into it) that the pattern captures — alone, or
 * in the pattern's match in one of the run's own answers (`sample`) with the verdict replaced. Checked by reading it
 * back, so a worked example never teaches an answer the runner could not read.
 */
function answerText(study: StudyRow, t: JudgeTemplate, labels: Record<string, string>, sample: string | null): string {
  const criteria = Object.keys(labels);
  const allowed = (c: string) => allowedLabels(study, c);
  const readsAs = (text: string) => {
    const got = readVerdicts(t.answer, text, criteria, allowed, t.together);
    return criteria.every((c) => got[c] === labels[c]);
  };
  const spellings = (label: string) => [
    label,
    ...Object.entries(t.answer.map ?? {})
      .filter(([, v]) => v.trim().toLowerCase() === label.toLowerCase())
      .map(([k]) => k),
  ];
  let text: string | undefined;
  if ('json' in t.answer) {
    const key = t.answer.json;
    text = t.together
      ? JSON.stringify({ [key]: labels })
      : spellings(labels[criteria[0]])
          .map((s) => JSON.stringify({ [key]: s }))
          .find(readsAs);
  } else {
    const pattern = t.answer.pattern;
    text = spellings(labels[criteria[0]])
      .flatMap((s) => [s, sample === null ? null : respellAnswerMatch(pattern, sample, s)])
      .filter((s): s is string => s !== null)
      .find(readsAs);
  }
  if (text === undefined || !readsAs(text))
    throw invalid(`The template's answer format cannot be written so that it reads "${Object.values(labels).join(', ')}".`);
  return text;
}

/** One worked example: the item as the template shows it (order a, b) and the settled answer. */
function exampleOf(
  study: StudyRow,
  base: JudgeTemplate,
  g: Graded,
  i: number,
  differ: number[],
  item: { externalId: string; payload: string },
  sample: string | null,
) {
  const payload = JSON.parse(item.payload) as unknown;
  const judged = judgedBy(g, base);
  // Together: every criterion the template judges that has a settled label; else the first disagreement.
  const cs = base.together ? [...judged].filter((c) => g.gold[c * g.n + i] >= 0) : [differ[0]];
  const criterion = base.together ? TOGETHER : g.criteria[differ[0]].id;
  const labels = Object.fromEntries(
    cs.map((c) => [g.criteria[c].id, judgeLabel(study, g.criteria[c].id, g.criteria[c].labels[g.gold[c * g.n + i]])]),
  );
  const messages = renderRequest(study, base, payload, { criterion, swapped: false });
  const example: WorkedExample = {
    item: item.externalId,
    criterion,
    prompt: messages[messages.length - 1].content,
    answer: answerText(study, base, labels, sample),
  };
  return { example, settled: cs.map((c) => ({ criterion: g.criteria[c].id, label: g.criteria[c].labels[g.gold[c * g.n + i]] })) };
}

/**
 * Makes the next version of a launched run's template with `k` worked examples drawn with `seed` (or the items the
 * lead chose) from the items where the run's judge disagreed with the settled ground truth. The examples replace
 * any the run's template had. Leads and admins of the study only.
 */
export function newTemplateFromDisagreements(actor: Actor, studyId: number, input: unknown): ExamplesVersionDto {
  const { db, study } = gradable(actor, studyId);
  const v = parseInput(examplesInput, input);
  const { runId, run, template } = launchedRun(db, study, v.run);
  const { examples: _old, ...base } = parseTemplate(JSON.parse(template.body));
  const g = gradedRun(db, study, run);
  const found = disagreementsOf(g, base);
  const candidates = [...found.keys()];
  let chosen: number[];
  if (v.items) {
    const ids = examplesQ.itemIdsByExternalId(db, studyId, v.items);
    const indexOf = new Map(g.itemIds.map((id, i) => [id, i]));
    chosen = [
      ...new Set(
        v.items.map((ext) => {
          const i = ids.has(ext) ? indexOf.get(ids.get(ext)!) : undefined;
          if (i === undefined || !found.has(i))
            throw invalid(`"${ext}" is not an item where the judge of "${v.run}" disagreed with the settled ground truth.`, {
              items: 'not a disagreement',
            });
          return i;
        }),
      ),
    ].sort((a, b) => a - b);
  } else {
    if (candidates.length < v.k!)
      throw invalid(
        `The judge of "${v.run}" disagreed with the settled ground truth on ${candidates.length} items; choose k of at most that.`,
        {
          k: 'more than the disagreements',
        },
      );
    chosen = draw(candidates, v.k!, v.seed);
  }
  const rows = new Map(
    examplesQ
      .itemsWithIds(
        db,
        studyId,
        chosen.map((i) => g.itemIds[i]),
      )
      .map((r) => [r.id, r]),
  );
  const sample = examplesQ.readableAnswerSample(db, runId) ?? null;
  const made = chosen.map((i) => exampleOf(study, base, g, i, found.get(i)!, rows.get(g.itemIds[i])!, sample));
  const saved = storeTemplate(db, actor, studyId, { ...base, examples: made.map((m) => m.example) });
  audit(db, {
    userId: actor.id,
    action: 'judge_template.examples',
    studyId,
    objectId: saved.id,
    detail: {
      run: v.run,
      from: `${template.name} v${template.version}`,
      version: saved.version,
      items: made.map((m) => m.example.item),
      ...(v.k ? { k: v.k, seed: v.seed } : {}),
    },
  });
  return {
    template: templateDto(saved),
    from: { run: v.run, template: { name: template.name, version: template.version } },
    disagreements: found.size,
    chosen: v.k ? { by: 'seed', seed: v.seed } : { by: 'lead' },
    examples: made.map((m) => ({ item: m.example.item, criterion: m.example.criterion, settled: m.settled })),
  };
}

/** The items (external ids) a stored template body carries as worked examples. */
export function exampleItemsOf(body: string): string[] {
  const examples = (JSON.parse(body) as { examples?: { item: string }[] }).examples ?? [];
  return [...new Set(examples.map((e) => e.item))];
}
