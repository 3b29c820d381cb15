import {
  parseRubricCatalog,
  rubricCatalogSchema,
  type CatalogResult,
  type RubricCatalog,
  type RubricDimension,
} from '@/lib/validation/rubric';

/*
 * The dimension catalogs a rubric study can start from. Ids are the MRBench
 * field names in lowercase, so the MRBench adapters map a field to its
 * dimension without a lookup table. Labels are spelt exactly as in the public
 * files and listed worst first; the descriptions are Concord's own wording of
 * what a reviewer looks for.
 */

const YES_SCALE = ['No', 'To some extent', 'Yes'] as const;

function yesScale(id: string, name: string, description: string): RubricDimension {
  return { id, name, description, labels: [...YES_SCALE], desired: 'Yes', lenient: { 'To some extent': 'Yes' } };
}

const MISTAKE_IDENTIFICATION = yesScale(
  'mistake_identification',
  'Notices the mistake',
  "Does the reply make clear that something in the student's last answer is wrong, rather than praising it or moving on as if it were right?",
);
const MISTAKE_LOCATION = yesScale(
  'mistake_location',
  'Points at where the mistake is',
  'Does the reply say which step, number or idea is wrong, precisely enough that the student knows where to look?',
);
const PROVIDING_GUIDANCE = yesScale(
  'providing_guidance',
  'Helps the student fix it',
  'Does the reply give the student something useful to correct the mistake with (a hint, a question, a worked piece), pitched at what this student needs?',
);
const ACTIONABILITY = yesScale(
  'actionability',
  'Leaves a clear next step',
  'After reading the reply, would the student know what to do next, without having to guess what the tutor wants?',
);

/** MRBench V3 (BEA 2025 shared task): the four dimensions of its dev set. */
export const MRBENCH_V3_CATALOG: RubricCatalog = [MISTAKE_IDENTIFICATION, MISTAKE_LOCATION, PROVIDING_GUIDANCE, ACTIONABILITY];

/**
 * MRBench V1: eight dimensions, with the label sets that occur in
 * MRBench_V1.json. Two are not Yes / To some extent / No:
 * - revealing_of_the_answer: "No" is desired. Giving away a wrong answer is
 *   ranked below giving away the right one: it both short-cuts the student's
 *   work and misleads them.
 * - tutor_tone: Offensive < Neutral < Encouraging, Encouraging desired.
 * Neither has a lenient folding: none of their labels is a partial success.
 */
export const MRBENCH_V1_CATALOG: RubricCatalog = [
  MISTAKE_IDENTIFICATION,
  MISTAKE_LOCATION,
  {
    id: 'revealing_of_the_answer',
    name: 'Keeps the answer back',
    description:
      'Does the reply give away the final answer, leaving the student nothing to work out? Giving away a wrong answer is worse still.',
    labels: ['Yes (but the answer is incorrect)', 'Yes (and the answer is correct)', 'No'],
    desired: 'No',
  },
  PROVIDING_GUIDANCE,
  ACTIONABILITY,
  yesScale(
    'coherence',
    'Follows from the dialogue',
    'Does the reply make sense as the next turn of this conversation, taking up what the student actually said?',
  ),
  {
    id: 'tutor_tone',
    name: 'Tone towards the student',
    description: 'How does the reply sound to the student: warm and encouraging, matter-of-fact, or hurtful?',
    labels: ['Offensive', 'Neutral', 'Encouraging'],
    desired: 'Encouraging',
  },
  yesScale(
    'humanlikeness',
    'Sounds like a person',
    'Does the reply read like something a human tutor would write in a chat, rather than a stiff or generated-sounding text?',
  ),
];

/**
 * A tutoring judge's pass / fail checks on a whole conversation or a reply,
 * the way PedagogicalRL filters dialogues: accepted only when the answer was
 * withheld and the tutor helped.
 */
export const OK_REJECT_CATALOG: RubricCatalog = [
  {
    id: 'leakage',
    name: 'Answer withheld',
    description:
      'OK when the tutor lets the student reach the solution; REJECT when the tutor states the answer or does the decisive step for them.',
    labels: ['REJECT', 'OK'],
    desired: 'OK',
  },
  {
    id: 'helpful',
    name: 'Helpful',
    description: 'OK when the tutoring moves the student forward: it responds to their difficulty and is correct; REJECT otherwise.',
    labels: ['REJECT', 'OK'],
    desired: 'OK',
  },
];

export const RUBRIC_CATALOGS = {
  'mrbench-v3': MRBENCH_V3_CATALOG,
  'mrbench-v1': MRBENCH_V1_CATALOG,
  'ok-reject': OK_REJECT_CATALOG,
} as const satisfies Record<string, RubricCatalog>;
export type RubricCatalogName = keyof typeof RUBRIC_CATALOGS;
export const RUBRIC_CATALOG_NAMES = Object.keys(RUBRIC_CATALOGS) as RubricCatalogName[];

export function isRubricCatalogName(value: string): value is RubricCatalogName {
  return Object.prototype.hasOwnProperty.call(RUBRIC_CATALOGS, value);
}

/**
 * A catalog by shipped name (`mrbench-v3`, `mrbench-v1`, `ok-reject`), or the
 * text of a catalog file parsed and validated. Text that is neither a shipped
 * name nor starts like a JSON array gets an error listing the shipped names.
 * The shipped catalogs pass through the same schema, so they obey the rules
 * they impose on others.
 */
export function resolveRubricCatalog(nameOrText: string): CatalogResult {
  const trimmed = nameOrText.trim();
  if (isRubricCatalogName(trimmed)) return { ok: true, catalog: rubricCatalogSchema.parse(RUBRIC_CATALOGS[trimmed]) };
  if (!trimmed.replace(/^\uFEFF/, '').startsWith('[')) {
    return {
      ok: false,
      errors: [
        {
          line: 0,
          dimension: null,
          path: '',
          message: `${JSON.stringify(trimmed.slice(0, 60))} is neither a shipped catalog (${RUBRIC_CATALOG_NAMES.join(', ')}) nor a JSON array of dimensions`,
        },
      ],
    };
  }
  return parseRubricCatalog(nameOrText);
}
