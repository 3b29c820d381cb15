import 'server-only';
import { createHash } from 'node:crypto';
import type { StudyRow } from '@/db/queries/studies';
import type { Judged, JudgesFacet } from '@/lib/kinds/facets/judges';
import { ALL_KINDS, studyKind } from '@/lib/kinds/registry';
import { type ChatMessage, type JudgeTemplate, judgeTemplateSchema, renderPrompt } from '@/lib/validation/judge-template';
import type { PairwiseItem } from '@/lib/validation/pairwise';
import { criteriaForItem } from '../review/judging';
import { invalid } from '../errors';
import { parseInput } from '../parse';

/*
 * What a run sends: one request per item, criterion (or '*' for all of the template's criteria together), sample
 * and order, each with its rendered prompt. What is judged on an item, which placeholders it fills, whether it can be
 * sent in both orders and which labels an answer is read against are the kind's (`lib/kinds/<kind>/judges.ts`):
 * pairwise items are sent in one or both orders and read as first / second / tie; rubric items are sent once per
 * dimension with `{{reply}}` and read against the dimension's labels.
 */

export const TOGETHER = '*';

export type PlannedRequest = {
  itemId: number;
  /** The criterion id, or '*' when the template judges its criteria together. */
  criterion: string;
  /** The criteria the answer is read for. */
  criteria: string[];
  sample: number;
  swapped: boolean;
};

export const requestKey = (r: Pick<PlannedRequest, 'itemId' | 'criterion' | 'sample' | 'swapped'>) =>
  `${r.itemId}|${r.criterion}|${r.sample}|${r.swapped ? 1 : 0}`;

export function parseTemplate(body: unknown): JudgeTemplate {
  return parseInput(judgeTemplateSchema, body);
}

/** The judges facet of the study's kind; refused for a kind without judges, naming the kinds that have them. */
export function judgesOf(study: Pick<StudyRow, 'kind'>): JudgesFacet {
  const judges = studyKind(study.kind).judges;
  if (!judges) {
    const kinds = ALL_KINDS.filter((k) => k.judges).map((k) => k.id);
    throw invalid(`Judges can be run from Concord on ${kinds.join(' and ')} studies; this study is ${study.kind.replace('_', ' ')}.`);
  }
  return judges;
}

export function assertJudgeable(study: Pick<StudyRow, 'kind'>) {
  judgesOf(study);
}

type Item = { id: number; payload: string };

export type { Judged };
export { rubricDimensions } from '@/lib/kinds/rubric/judges';

/**
 * Everything the study judges on this item, in the study's order: the kind's, or by default the criteria of the
 * study's catalog that apply to the item, each read against the kind's labels.
 */
function judgedOn(study: StudyRow, item: unknown): Judged[] {
  const judges = judgesOf(study);
  if (judges.judgedOn) return judges.judgedOn(study, item);
  return criteriaForItem(study, item as PairwiseItem).map((c) => ({ ...c, labels: judges.labelsOf(study, c.id) }));
}

/** What this template judges on `item`, in the study's order. */
function templateCriteria(study: StudyRow, template: JudgeTemplate, item: unknown) {
  const all = judgedOn(study, item);
  return template.criteria ? all.filter((c) => template.criteria!.includes(c.id)) : all;
}

/** The labels a verdict on `criterion` is read against (first/second/tie for pairwise). */
export function allowedLabels(study: StudyRow, criterion: string): readonly string[] {
  return judgesOf(study).labelsOf(study, criterion);
}

/** Every request of the run, item by item (an item's criteria, samples and orders together). */
export function* planRequests(
  study: StudyRow,
  template: JudgeTemplate,
  items: Iterable<Item>,
  opts: { samples: number; bothOrders: boolean },
): Generator<PlannedRequest> {
  for (const row of items) yield* requestsForItem(study, template, row.id, JSON.parse(row.payload) as unknown, opts);
}

/** The requests of one item (its payload already read): its criteria, samples and orders. */
export function* requestsForItem(
  study: StudyRow,
  template: JudgeTemplate,
  itemId: number,
  item: unknown,
  opts: { samples: number; bothOrders: boolean },
): Generator<PlannedRequest> {
  // an item with one reply (rubric) has no order to swap
  const orders = opts.bothOrders && judgesOf(study).rules.bothOrders ? [false, true] : [false];
  const criteria = templateCriteria(study, template, item).map((c) => c.id);
  if (!criteria.length) return;
  const groups = template.together ? [{ criterion: TOGETHER, criteria }] : criteria.map((c) => ({ criterion: c, criteria: [c] }));
  for (const g of groups)
    for (let sample = 1; sample <= opts.samples; sample++)
      for (const swapped of orders) yield { itemId, criterion: g.criterion, criteria: g.criteria, sample, swapped };
}

/**
 * The messages of one request: the template filled with the item, its replies in the order sent (pairwise) or its
 * reply (rubric), and the criterion or dimension with its labels.
 */
export function renderRequest(
  study: StudyRow,
  template: JudgeTemplate,
  item: unknown,
  r: Pick<PlannedRequest, 'criterion' | 'swapped'>,
): ChatMessage[] {
  const criterion = r.criterion === TOGETHER ? undefined : judgedOn(study, item).find((c) => c.id === r.criterion);
  const criterionCtx = criterion && {
    id: criterion.id,
    name: criterion.name,
    description: criterion.description,
    aspects: criterion.aspects,
  };
  return renderPrompt(template, {
    ...judgesOf(study).prompt(item, r.swapped),
    criterion: criterionCtx,
    labels: criterion?.labels ?? allowedLabels(study, r.criterion),
  });
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** The messages as JSON text: what both hashes below are taken of (made once per request). */
export const promptText = (messages: ChatMessage[]) => JSON.stringify(messages);

export const promptHash = (messages: ChatMessage[] | string) => sha256(typeof messages === 'string' ? messages : promptText(messages));

/**
 * The answer cache's key: the same endpoint, model, parameters, rendered prompt and sample give the same answer.
 * The hashed text is the JSON array [endpoint, model, temperature, maxTokens, seed, messages, sample], built
 * around the messages' JSON text when it is given, so they are not turned into JSON a second time.
 */
export function cacheKey(
  p: { endpoint: string; model: string; temperature: number | null; maxTokens: number | null; seed: number | null },
  messages: ChatMessage[] | string,
  sample: number,
) {
  const head = JSON.stringify([p.endpoint.replace(/\/+$/, ''), p.model, p.temperature, p.maxTokens, p.seed]);
  const text = typeof messages === 'string' ? messages : promptText(messages);
  return sha256(`${head.slice(0, -1)},${text},${JSON.stringify(sample)}]`);
}
