import type { JudgeTemplateInput } from './judge-template';

/*
 * The prompt templates Concord ships, one per shipped catalog. A lead starts from one of these and edits it; each
 * edit is a new version of the study's template. Wording is Concord's own.
 */

/** Pairwise, one request per item and criterion of the study's catalog (the KMP-style criteria and overall). */
export const PAIRWISE_CRITERION_TEMPLATE: JudgeTemplateInput = {
  name: 'pairwise-criterion',
  system:
    'You are an experienced mathematics teacher who coaches tutors. You compare two candidate next turns of a tutor ' +
    'in a dialogue with a student, on one criterion at a time, and you say which one does better on that criterion only.',
  user:
    'Problem the student is working on:\n{{problem}}\n\nTutor instructions:\n{{instructions}}\n\nDialogue so far:\n{{history}}\n\n' +
    'Candidate reply 1:\n{{response_1}}\n\nCandidate reply 2:\n{{response_2}}\n\n' +
    'Criterion: {{criterion.name}}\n{{criterion.description}}\nWhat to look at:\n{{criterion.aspects}}\n\n' +
    'Judge only this criterion. If both replies do equally well or equally badly, say tie. ' +
    'End with one line of JSON: {"winner": "first"}, {"winner": "second"} or {"winner": "tie"}.',
  answer: { json: 'winner', map: { '1': 'first', '2': 'second', 'reply 1': 'first', 'reply 2': 'second' } },
};

/** MRBench, one request per item and dimension, answering 1 (yes) or 0 (no). */
export const MRBENCH_DIMENSION_TEMPLATE: JudgeTemplateInput = {
  name: 'mrbench-dimension',
  system: 'You assess single replies of a mathematics tutor to a student who has just made a mistake.',
  user:
    'Problem:\n{{problem}}\n\nDialogue so far:\n{{history}}\n\nTutor reply to assess:\n{{reply}}\n\n' +
    'Question: {{criterion.name}}. {{criterion.description}}\n\n' +
    'Answer with a single digit on the last line: 1 if yes, 0 if no.',
  answer: { pattern: '([01])\\s*$', map: { '1': 'Yes', '0': 'No' } },
};

/** Answer leakage: does the tutor give the answer away? OK or REJECT. */
export const LEAKAGE_TEMPLATE: JudgeTemplateInput = {
  name: 'leakage',
  criteria: ['leakage'],
  system: 'You review tutoring dialogues for whether the tutor lets the student do the thinking.',
  user:
    'Problem:\n{{problem}}\n\nDialogue:\n{{history}}\n\nTutor reply:\n{{reply}}\n\n' +
    'Does this reply state the final answer or carry out the decisive step for the student? ' +
    'If it does, the verdict is REJECT; if the student is still left to reach the solution, the verdict is OK. ' +
    'Answer with JSON {"decision": "OK"} or {"decision": "REJECT"}.',
  answer: { json: 'decision' },
};

export const SHIPPED_TEMPLATES = {
  'pairwise-criterion': PAIRWISE_CRITERION_TEMPLATE,
  'mrbench-dimension': MRBENCH_DIMENSION_TEMPLATE,
  leakage: LEAKAGE_TEMPLATE,
} as const;
