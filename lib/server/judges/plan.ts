import 'server-only';
import { createHash } from 'node:crypto';
import type { StudyRow } from '@/db/queries/studies';
import { type ChatMessage, type JudgeTemplate, PAIRWISE_ANSWERS, judgeTemplateSchema, renderPrompt } from '@/lib/validation/judge-template';
import type { PairwiseItem } from '@/lib/validation/pairwise';
import { criteriaForItem } from '../review/judging';
import { invalid } from '../errors';
import { parseInput } from '../parse';

/*
 * What a run sends: one request per item, criterion (or '*' for all of the template's criteria together), sample
 * and order, each with its rendered prompt. Only pairwise studies can be judged from Concord so far.
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

export function assertJudgeable(study: Pick<StudyRow, 'kind'>) {
  if (study.kind !== 'pairwise') throw invalid(`Judges can be run from Concord on pairwise studies; this study is ${study.kind.replace('_', ' ')}.`);
}

type Item = { id: number; payload: string };

/** The criteria of `item` this template judges, in the study's order. */
function templateCriteria(study: StudyRow, template: JudgeTemplate, item: PairwiseItem) {
  const all = criteriaForItem(study, item);
  return template.criteria ? all.filter((c) => template.criteria!.includes(c.id)) : all;
}

/** Every request of the run, item by item (an item's criteria, samples and orders together). */
export function* planRequests(
  study: StudyRow,
  template: JudgeTemplate,
  items: Iterable<Item>,
  opts: { samples: number; bothOrders: boolean },
): Generator<PlannedRequest> {
  const orders = opts.bothOrders ? [false, true] : [false];
  for (const row of items) {
    const item = JSON.parse(row.payload) as PairwiseItem;
    const criteria = templateCriteria(study, template, item).map((c) => c.id);
    if (!criteria.length) continue;
    const groups = template.together ? [{ criterion: TOGETHER, criteria }] : criteria.map((c) => ({ criterion: c, criteria: [c] }));
    for (const g of groups)
      for (let sample = 1; sample <= opts.samples; sample++)
        for (const swapped of orders) yield { itemId: row.id, criterion: g.criterion, criteria: g.criteria, sample, swapped };
  }
}

/** The messages of one request: the template filled with the item, its replies in the order sent and the criterion. */
export function renderRequest(study: StudyRow, template: JudgeTemplate, item: PairwiseItem, r: Pick<PlannedRequest, 'criterion' | 'swapped'>): ChatMessage[] {
  const criterion = r.criterion === TOGETHER ? undefined : criteriaForItem(study, item).find((c) => c.id === r.criterion);
  return renderPrompt(template, {
    problem: item.problem,
    instructions: item.instructions ?? '',
    history: item.history ?? [],
    responses: r.swapped ? [item.b.text, item.a.text] : [item.a.text, item.b.text],
    criterion: criterion && { id: criterion.id, name: criterion.name, description: criterion.description, aspects: criterion.aspects },
    labels: PAIRWISE_ANSWERS,
  });
}

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

export const promptHash = (messages: ChatMessage[]) => sha256(JSON.stringify(messages));

/** The answer cache's key: the same endpoint, model, parameters, rendered prompt and sample give the same answer. */
export function cacheKey(p: { endpoint: string; model: string; temperature: number | null; maxTokens: number | null; seed: number | null }, messages: ChatMessage[], sample: number) {
  return sha256(JSON.stringify([p.endpoint.replace(/\/+$/, ''), p.model, p.temperature, p.maxTokens, p.seed, messages, sample]));
}
