'use server';

import { runAction } from '@/lib/auth/handlers';
import {
  cancelJudgeRun,
  launchJudgeRun,
  pauseJudgeRun,
  previewJudgeTemplate,
  resumeJudgeRun,
  saveJudgeTemplate,
  startJudgeRunner,
} from '@/lib/server/judges/judges';
import { judgeRunDisagreements, newTemplateFromDisagreements } from '@/lib/server/judges/examples';

/** The prompt on the item named, or on a random item of the study when `item` is empty. */
export async function previewTemplateAction(studyId: number, template: string, item: string) {
  return runAction((actor) => previewJudgeTemplate(actor, studyId, template, item.trim() || null, { random: true }));
}

export async function saveTemplateAction(studyId: number, template: string) {
  return runAction((actor) => saveJudgeTemplate(actor, studyId, template));
}

/** Creates (or resumes) the run and starts its runner process; the page then polls its progress. */
export async function startRunAction(studyId: number, input: Record<string, unknown>) {
  return runAction((actor) => {
    const launched = launchJudgeRun(actor, studyId, input);
    startJudgeRunner(launched.runId);
    return launched;
  });
}

export async function pauseRunAction(runId: number) {
  return runAction((actor) => pauseJudgeRun(actor, runId));
}

export async function resumeRunAction(runId: number) {
  return runAction((actor) => {
    const status = resumeJudgeRun(actor, runId);
    startJudgeRunner(runId);
    return status;
  });
}

export async function cancelRunAction(runId: number) {
  return runAction((actor) => cancelJudgeRun(actor, runId));
}

/** The items where a launched run's judge disagreed with the settled ground truth, for the lead to pick examples from. */
export async function disagreementsAction(studyId: number, run: string) {
  return runAction((actor) => judgeRunDisagreements(actor, studyId, run));
}

/** The next version of a run's template with worked examples from its disagreements (k drawn with a seed, or chosen). */
export async function examplesAction(studyId: number, input: { run: string; k?: number; seed?: number; items?: string[] }) {
  return runAction((actor) => newTemplateFromDisagreements(actor, studyId, input));
}
