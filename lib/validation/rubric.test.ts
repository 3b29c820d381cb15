import { describe, expect, it } from 'vitest';
import type * as z from 'zod';
import {
  formatCatalogError,
  parseRubricCatalog,
  rubricAnnotationLineSchema,
  rubricItemSchema,
  rubricJudgeLineSchema,
  validateRubricCatalog,
} from './rubric';
import { MRBENCH_V1_CATALOG, MRBENCH_V3_CATALOG, OK_REJECT_CATALOG, RUBRIC_CATALOG_NAMES, resolveRubricCatalog } from './rubric-catalogs';
import { zodIssuesToImportErrors } from './import-errors';

function errorsOf(schema: z.ZodType, value: unknown) {
  const r = schema.safeParse(value, { reportInput: true });
  if (r.success) throw new Error('expected the value to be rejected');
  return zodIssuesToImportErrors(1, r.error).map(({ path, message }) => `${path}: ${message}`);
}

function catalogErrors(value: unknown): string[] {
  const r = validateRubricCatalog(value);
  if (r.ok) throw new Error('expected the catalog to be rejected');
  return r.errors.map(formatCatalogError);
}

const yes = { id: 'actionability', name: 'Actionable', labels: ['No', 'To some extent', 'Yes'], desired: 'Yes' };

describe('rubric dimension catalogs', () => {
  it('accepts a catalog, keeps the label order and the lenient folding', () => {
    const r = validateRubricCatalog([
      { ...yes, lenient: { 'To some extent': 'Yes' } },
      { id: 'leakage', name: 'Leak', labels: ['REJECT', 'OK'], desired: 'OK' },
    ]);
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(r.catalog[0].labels).toEqual(['No', 'To some extent', 'Yes']);
      expect(r.catalog[0].lenient).toEqual({ 'To some extent': 'Yes' });
      expect(r.catalog[1].lenient).toBeUndefined();
    }
  });

  it('refuses bad label sets, naming the dimension and the field', () => {
    expect(
      catalogErrors([
        { ...yes, id: 'one', labels: ['Yes'] },
        { ...yes, id: 'dup', labels: ['No', 'Yes', 'No'] },
        { ...yes, id: 'desired', desired: 'Maybe' },
        { ...yes, id: 'blank', labels: ['No', ' Yes'], desired: 'No' },
      ]),
    ).toEqual([
      'dimension 1 (one), labels: must have at least 2 items',
      'dimension 2 (dup), labels[2]: repeats the label "No"',
      'dimension 3 (desired), desired: "Maybe" is not one of No, To some extent, Yes',
      'dimension 4 (blank), labels[1]: must not start or end with whitespace',
    ]);
  });

  it('refuses lenient keys and targets outside the label set, chains and folding the desired label away', () => {
    expect(
      catalogErrors([
        { ...yes, lenient: { Maybe: 'Yes', 'To some extent': 'Perfect' } },
        { ...yes, id: 'chain', labels: ['No', 'Partly', 'Mostly', 'Yes'], lenient: { Partly: 'Mostly', Mostly: 'Yes' } },
        { ...yes, id: 'away', lenient: { Yes: 'To some extent' } },
      ]),
    ).toEqual([
      'dimension 1 (actionability), lenient.Maybe: folds "Maybe", which is not one of No, To some extent, Yes',
      'dimension 1 (actionability), lenient["To some extent"]: folds into "Perfect", which is not one of No, To some extent, Yes',
      'dimension 2 (chain), lenient.Partly: folds into "Mostly", which is itself folded into "Yes": fold into the final label directly',
      'dimension 3 (away), lenient.Yes: folds the desired label "Yes" away; a lenient evaluation must keep the desired label',
    ]);
  });

  it('refuses duplicate ids and ids unlike criterion ids, and an empty catalog', () => {
    expect(catalogErrors([yes, { ...yes, name: 'Again' }, { ...yes, id: 'Mistake_Location' }, { ...yes, id: undefined }])).toEqual([
      'dimension 3 (Mistake_Location), id: must start with a lowercase letter and contain only lowercase letters, digits and _',
      'dimension 4, id: is required',
      'dimension 2 (actionability), id: duplicates dimension id "actionability"',
    ]);
    expect(catalogErrors([])).toEqual(['catalog: must have at least one item']);
    expect(catalogErrors({ id: 'x' })).toEqual(['catalog: must be an array (got an object)']);
  });

  it('parses catalog file text, reporting broken JSON as a whole-file error', () => {
    expect(parseRubricCatalog('\uFEFF' + JSON.stringify([yes])).ok).toBe(true);
    const broken = parseRubricCatalog('[{"id": ');
    expect(broken.ok).toBe(false);
    expect(!broken.ok && broken.errors[0]).toMatchObject({ line: 0, dimension: null, path: '' });
  });

  it('ships three catalogs that pass their own schema', () => {
    expect(RUBRIC_CATALOG_NAMES).toEqual(['mrbench-v3', 'mrbench-v1', 'ok-reject']);
    for (const name of RUBRIC_CATALOG_NAMES) expect(resolveRubricCatalog(name).ok).toBe(true);
    expect(MRBENCH_V3_CATALOG.map((d) => d.id)).toEqual([
      'mistake_identification',
      'mistake_location',
      'providing_guidance',
      'actionability',
    ]);
    expect(MRBENCH_V3_CATALOG.every((d) => d.desired === 'Yes' && d.lenient?.['To some extent'] === 'Yes')).toBe(true);
    expect(MRBENCH_V1_CATALOG).toHaveLength(8);
    expect(OK_REJECT_CATALOG.map((d) => [d.id, d.labels, d.desired])).toEqual([
      ['leakage', ['REJECT', 'OK'], 'OK'],
      ['helpful', ['REJECT', 'OK'], 'OK'],
    ]);
    // Every shipped dimension lists its desired label last: worst → best.
    for (const d of [...MRBENCH_V3_CATALOG, ...MRBENCH_V1_CATALOG, ...OK_REJECT_CATALOG]) expect(d.labels.at(-1)).toBe(d.desired);
  });

  it('resolves a name, a JSON text, or explains what it expected', () => {
    const fromText = resolveRubricCatalog(JSON.stringify(OK_REJECT_CATALOG));
    expect(fromText).toEqual({ ok: true, catalog: OK_REJECT_CATALOG });
    const unknown = resolveRubricCatalog('mrbench-v2');
    expect(unknown.ok).toBe(false);
    if (!unknown.ok) {
      expect(unknown.errors[0].message).toBe(
        '"mrbench-v2" is neither a shipped catalog (mrbench-v3, mrbench-v1, ok-reject) nor a JSON array of dimensions',
      );
    }
  });
});

describe('rubric items', () => {
  const item = {
    id: 'mrb3-0007-Sonnet',
    group: 'mrb3-0007',
    problem: 'What is 3/8 + 1/4?',
    history: [
      { role: 'tutor', text: 'Walk me through it.' },
      { role: 'student', text: '4/12' },
    ],
    reply: { source: 'Sonnet', text: 'Are eighths and quarters the same size?' },
  };

  it('accepts a reply item, and a whole-dialogue item without reply, group or problem', () => {
    expect(rubricItemSchema.parse(item)).toEqual(item);
    expect(rubricItemSchema.parse({ id: 'conv-1', history: item.history })).toEqual({ id: 'conv-1', history: item.history });
    expect(rubricItemSchema.parse({ id: 'r', reply: { source: 'm', text: 'Hi' } }).history).toEqual([]);
  });

  it('requires a history when there is nothing else to judge, and reports fields by path', () => {
    expect(errorsOf(rubricItemSchema, { id: 'conv-1' })).toEqual([
      'history: must have at least one turn when there is no reply: without a reply the dialogue itself is what is judged',
    ]);
    expect(errorsOf(rubricItemSchema, { ...item, group: ' g', history: [{ role: 'teacher', text: 'x' }], reply: { text: 'x' } })).toEqual([
      'group: must not start or end with whitespace',
      'history[0].role: must be one of tutor, student',
      'reply.source: is required',
    ]);
  });
});

describe('rubric annotation and judge lines against a catalog', () => {
  const annotation = rubricAnnotationLineSchema(MRBENCH_V3_CATALOG);
  const judge = rubricJudgeLineSchema(MRBENCH_V3_CATALOG);

  it('accepts labels of the catalog, trimming surrounding whitespace, and defaults sample to 1', () => {
    expect(annotation.parse({ item: 'i', annotator: 'mrbench-gold', labels: { actionability: ' To some extent ' } })).toEqual({
      item: 'i',
      annotator: 'mrbench-gold',
      labels: { actionability: 'To some extent' },
    });
    expect(judge.parse({ item: 'i', judge: 'gpt5', labels: { mistake_identification: 'Yes' }, rationale: 'ok' })).toEqual({
      item: 'i',
      judge: 'gpt5',
      labels: { mistake_identification: 'Yes' },
      sample: 1,
      rationale: 'ok',
    });
    expect(judge.parse({ item: 'i', judge: 'gpt5', labels: { actionability: 'No' }, sample: 3 }).sample).toBe(3);
  });

  it('names the allowed labels; refuses unknown dimensions, other case and non-strings', () => {
    expect(
      errorsOf(annotation, {
        item: 'i',
        annotator: 'a',
        labels: { actionability: 'Maybe', Mistake_Location: 'Yes', mistake_identification: 'yes', providing_guidance: 2 },
      }),
    ).toEqual([
      'labels.actionability: "Maybe" is not one of No, To some extent, Yes',
      'labels.Mistake_Location: is not a dimension of this study (mistake_identification, mistake_location, providing_guidance, actionability)',
      'labels.mistake_identification: "yes" is not one of No, To some extent, Yes',
      'labels.providing_guidance: must be a string (got number)',
    ]);
  });

  it('refuses empty or missing labels, reserved keys, and bad samples', () => {
    expect(errorsOf(annotation, { item: 'i', annotator: 'a', labels: {} })).toEqual(['labels: must contain at least one label']);
    expect(errorsOf(annotation, { item: 'i', annotator: 'a' })).toEqual(['labels: is required']);
    expect(errorsOf(annotation, JSON.parse('{"item": "i", "annotator": "a", "labels": {"__proto__": "Yes"}}'))).toEqual([
      'labels.__proto__: is not a dimension of this study (mistake_identification, mistake_location, providing_guidance, actionability)',
    ]);
    expect(errorsOf(judge, { item: 'i', judge: 'j', labels: { actionability: 'Yes' }, sample: 0 })).toEqual(['sample: must be at least 1']);
    expect(errorsOf(judge, { item: 'i', judge: 'j', labels: { actionability: 'Yes' }, sample: 1.5 })).toEqual([
      'sample: must be a whole number (got number)',
    ]);
  });

  it('checks V1 labels with their own sets', () => {
    const v1 = rubricJudgeLineSchema(MRBENCH_V1_CATALOG);
    expect(
      v1.safeParse({
        item: 'i',
        judge: 'j',
        labels: { tutor_tone: 'Encouraging', revealing_of_the_answer: 'Yes (and the answer is correct)' },
      }).success,
    ).toBe(true);
    expect(errorsOf(v1, { item: 'i', judge: 'j', labels: { tutor_tone: 'Yes' } })).toEqual([
      'labels.tutor_tone: "Yes" is not one of Offensive, Neutral, Encouraging',
    ]);
  });
});
