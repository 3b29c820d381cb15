import * as z from 'zod';
import type { FlowItem, FlowStep } from '@/lib/validation/flow';
import { numberTokens } from '@/lib/validation/answer-match';
import { nonEmptyText } from '@/lib/validation/common';
import { zodIssuesToImportErrors } from '@/lib/validation/import-errors';
import type { JsonlOptions } from '../jsonl';
import { failure, type RecordResult } from '../record-result';
import { jsonlValues } from '../records';

/*
 * MathDial (Macina et al., Findings of EMNLP 2023; CC BY-SA 4.0) → Concord flows.
 * One line of `mathdial/test.jsonl` is one teacher–student conversation about a
 * GSM8K problem; it becomes one flow whose steps are the conversation's turns.
 */

/** The fields of a MathDial line that the conversion uses; others are ignored. */
export const mathdialRecordSchema = z.object({
  qid: z.union([z.int(), nonEmptyText]),
  question: nonEmptyText,
  ground_truth: z.string(),
  student_incorrect_solution: z.string(),
  student_profile: z.string(),
  // null in a few published lines.
  teacher_described_confusion: z.string().nullish(),
  conversation: nonEmptyText,
});
export type MathdialRecord = z.infer<typeof mathdialRecordSchema>;

/** Teacher moves and the principle each stands for; `generic` (greetings, small talk) stands for none. */
const MOVE_PRINCIPLES: Record<string, string[]> = {
  focus: ['Questioning'],
  probing: ['Questioning'],
  telling: ['Explanation'],
  generic: [],
};
const MOVE_TAG = /^\((generic|focus|probing|telling)\)\s*/;
const TURN_SEPARATOR = '|EOM|';
const SPEAKER_PREFIX = /^\s*([A-Za-z][A-Za-z .'-]{0,39}):/;

/**
 * The problem's final answer from a GSM8K-style solution: the number after the
 * last `####` when there is one, else the last number in the text; normalised
 * ("2,520,000" → "2520000"). Null when the solution holds no number.
 */
export function finalAnswer(solution: string): string | null {
  const marker = solution.lastIndexOf('####');
  if (marker !== -1) {
    const after = numberTokens(solution.slice(marker + 4));
    if (after.length > 0) return after[0];
  }
  const all = numberTokens(solution);
  return all.length > 0 ? all[all.length - 1] : null;
}

/** Thrown for a conversation that cannot be read as turns; `path` names the field. */
export class MathdialFormatError extends Error {
  constructor(
    readonly path: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Splits a MathDial conversation into flow steps. Teacher turns become tutor
 * steps with the principles of their move tag (the tag is removed from the
 * text); student turns — labelled `Student:` or with the student's first name,
 * as some lines do — become student steps. Turns that are empty once the tag is
 * removed (a few teachers sent a bare move tag) are dropped.
 */
export function mathdialSteps(conversation: string, studentName: string | null): FlowStep[] {
  const steps: FlowStep[] = [];
  conversation.split(TURN_SEPARATOR).forEach((turn, index) => {
    const prefix = SPEAKER_PREFIX.exec(turn);
    const speaker = prefix?.[1].trim();
    if (!prefix || !speaker) {
      throw new MathdialFormatError('conversation', `turn ${index + 1} does not start with a speaker ("Teacher:" or "Student:")`);
    }
    let text = turn.slice(prefix[0].length).trim();
    if (speaker === 'Teacher') {
      const move = MOVE_TAG.exec(text);
      const principles = move ? [...MOVE_PRINCIPLES[move[1]]] : [];
      if (move) text = text.slice(move[0].length).trim();
      if (text) steps.push({ speaker: 'tutor', text, principles });
    } else if (speaker === 'Student' || speaker === studentName) {
      if (text) steps.push({ speaker: 'student', text });
    } else {
      throw new MathdialFormatError('conversation', `turn ${index + 1} has an unknown speaker "${speaker}"`);
    }
  });
  if (steps.length === 0) throw new MathdialFormatError('conversation', 'has no non-empty turns');
  return steps;
}

/**
 * The flow id of a MathDial line. MathDial has several conversations about the
 * same problem (`qid`), so the n-th line with a given qid (in file order) gets
 * `mathdial-<qid>-<n>` for n ≥ 2 and the first keeps `mathdial-<qid>`.
 */
export function mathdialFlowId(qid: number | string, occurrence: number): string {
  return occurrence <= 1 ? `mathdial-${qid}` : `mathdial-${qid}-${occurrence}`;
}

/**
 * One MathDial line as a flow: the question with its reference solution and
 * final answer, the student's incorrect solution as error-analysis material
 * `M1` (with the teacher's description of the confusion as feedback), the
 * student profile, and the conversation as steps. Steps name no materials.
 */
export function mathdialToFlow(record: MathdialRecord, occurrence = 1): FlowItem {
  const answer = finalAnswer(record.ground_truth);
  const studentName = /^\s*([A-Z][A-Za-z'-]*)\b/.exec(record.student_profile)?.[1] ?? null;
  const confusion = record.teacher_described_confusion?.trim();
  return {
    id: mathdialFlowId(record.qid, occurrence),
    problem: {
      text: record.question,
      solution: record.ground_truth,
      ...(answer !== null ? { answer } : {}),
    },
    materials: record.student_incorrect_solution.trim()
      ? [
          {
            id: 'M1',
            kind: 'error_analysis',
            student_solution: record.student_incorrect_solution,
            ...(confusion ? { feedback: confusion } : {}),
          },
        ]
      : [],
    student_profile: record.student_profile,
    steps: mathdialSteps(record.conversation, studentName),
  };
}

/** The flows of a MathDial JSONL file, unvalidated (the flow reader checks them against the flow schema). */
export function* mathdialFlows(path: string, opts?: JsonlOptions): Generator<RecordResult<unknown>> {
  const seen = new Map<string, number>();
  for (const r of jsonlValues(path, opts)) {
    if (!r.ok) {
      yield r;
      continue;
    }
    const parsed = mathdialRecordSchema.safeParse(r.value, { reportInput: true });
    if (!parsed.success) {
      yield { line: r.line, ok: false, errors: zodIssuesToImportErrors(r.line, parsed.error) };
      continue;
    }
    const qid = String(parsed.data.qid);
    const occurrence = (seen.get(qid) ?? 0) + 1;
    seen.set(qid, occurrence);
    try {
      yield { line: r.line, ok: true, value: mathdialToFlow(parsed.data, occurrence) };
    } catch (e) {
      if (!(e instanceof MathdialFormatError)) throw e;
      yield failure(r.line, e.path, e.message);
    }
  }
}
