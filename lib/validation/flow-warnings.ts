import type { FlowItem } from './flow';
import { textGivesAnswer } from './answer-match';

export type FlowWarningKind = 'unknown_material' | 'early_follow_up';

export type FlowWarning = {
  /** 1-based step number, as shown in the review screen. */
  step: number;
  kind: FlowWarningKind;
  message: string;
  /** The material name the warning is about. */
  material: string;
};

/** Material kinds that belong after the main problem is solved, with how to name them. */
const LATER_KINDS = new Map<string, string>([
  ['follow_up', 'a follow-up problem'],
  ['similar_problem', 'a similar problem'],
]);

/**
 * Problems a reviewer should look at, computed from the flow alone.
 *
 * - unknown_material: a step names a material the flow does not provide
 *   (imports accept these on purpose; they are the hallucinations to catch).
 * - early_follow_up: a step uses a follow-up or similar problem before any
 *   student step has stated the main problem's answer. Only checked when
 *   `problem.answer` is known. A student step that states the answer counts
 *   from that step on, so a student step may state it and move on at once.
 */
export function flowWarnings(flow: FlowItem): FlowWarning[] {
  const warnings: FlowWarning[] = [];
  const kinds = new Map((flow.materials ?? []).map((m) => [m.id, m.kind] as const));
  const answer = flow.problem.answer?.trim() || undefined;
  let answered = false;

  flow.steps.forEach((step, index) => {
    const n = index + 1;
    if (answer && step.speaker === 'student' && textGivesAnswer(step.text, answer)) answered = true;
    for (const name of step.materials ?? []) {
      const kind = kinds.get(name);
      if (kind === undefined) {
        warnings.push({
          step: n,
          kind: 'unknown_material',
          material: name,
          message: `Step ${n} uses ${name}, which this flow does not provide.`,
        });
      } else if (answer && !answered && LATER_KINDS.has(kind)) {
        warnings.push({
          step: n,
          kind: 'early_follow_up',
          material: name,
          message: `Step ${n} uses ${name} (${LATER_KINDS.get(kind)}) before the student has given the answer to the main problem (${answer}).`,
        });
      }
    }
  });
  return warnings;
}
