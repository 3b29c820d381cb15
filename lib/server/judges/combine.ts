import 'server-only';
import { getDb, inTransaction } from '@/db/client';
import * as aq from '@/db/queries/analytics';
import * as judgeRunsQ from '@/db/queries/judge-runs';
import type { JudgeRunRecipe } from '@/db/schema';
import { type CombinedLabel, PAIRWISE_SCALE, combineVerdicts } from '@/lib/stats/combine';
import { combineRunsSchema } from '@/lib/validation/judges';
import { audit } from '../accounts/audit';
import type { Actor } from '../actor';
import { LABEL_SET, loadFrame, loadJudge } from '../analytics/data';
import { conflict, invalid } from '../errors';
import { parseInput } from '../parse';
import { studyForStaff } from '../review/access';
import type { CombinedRunDto } from './dto';

/**
 * Combines judge runs of a study into a new run (DESIGN "Combined judges"), stored like an imported run — its
 * verdicts in `judge_labels`, so every dashboard reads it — with its recipe: the rule, the source runs and what was
 * left unjudged. Each source run contributes the verdict that counts on the dashboards (the one given in the
 * canonical order, else the swapped one); the combined verdicts are in the canonical order. Pairwise labels have
 * no desired label, so pairwise studies combine by `majority` (a tied majority is left unjudged and counted).
 * All or nothing: the run and its verdicts are written in one transaction, and a second call with the same name
 * (a double click) is refused. Leads and admins only.
 */
export function combineJudgeRuns(actor: Actor, studyId: number, input: unknown): CombinedRunDto {
  const { runs: names, rule, name, missing } = parseInput(combineRunsSchema, input);
  const db = getDb();
  const study = studyForStaff(db, actor, studyId);
  if (study.kind !== 'pairwise') throw invalid('Judge runs can be combined in pairwise studies.');
  if (rule !== 'majority') {
    throw invalid(
      `The rule "${rule}" needs a desired label, and pairwise labels (lose < tie < win) have none: combine pairwise runs by majority.`,
      { rule: 'use majority' },
    );
  }
  const runs = names.map((n) => {
    const run = aq.findJudgeRun(db, studyId, n);
    if (!run) {
      const known = aq.judgeRuns(db, studyId).map((r) => r.name);
      throw invalid(`This study has no judge run named "${n}"${known.length ? `; its runs are ${known.join(', ')}` : ''}.`, { runs: n });
    }
    return run;
  });
  if (judgeRunsQ.judgeRunExists(db, studyId, name)) throw conflict(`A judge run named "${name}" already exists in this study; choose another name.`);

  const frame = loadFrame(db, study);
  const { n } = frame;
  const codes = runs.map((r) => loadJudge(db, frame, r.id).verdict);
  const R = runs.length;
  // The combined label of every combination of codes (−1 = no verdict), computed once: 4^R combinations at most.
  const memo = new Map<number, CombinedLabel>();
  const labels = new Array<string | null>(R);
  const verdicts: [number, string, string][] = [];
  const counts = { pairs: 0, combined: 0, tie: 0, missing: 0 };
  frame.criteria.forEach((criterion, c) => {
    for (let i = 0; i < n; i++) {
      let key = 0;
      let any = false;
      for (let r = 0; r < R; r++) {
        const code = codes[r][c * n + i];
        if (code >= 0) any = true;
        key = key * 4 + code + 1;
      }
      if (!any) continue;
      counts.pairs++;
      let combined = memo.get(key);
      if (!combined) {
        for (let r = 0; r < R; r++) {
          const code = codes[r][c * n + i];
          labels[r] = code >= 0 ? LABEL_SET[code] : null;
        }
        combined = combineVerdicts(labels, PAIRWISE_SCALE, rule, { missing });
        memo.set(key, combined);
      }
      if (combined.label !== null) {
        counts.combined++;
        verdicts.push([frame.items.ids[i], criterion.id, combined.label]);
      } else if (combined.reason === 'tie') counts.tie++;
      else counts.missing++;
    }
  });
  if (counts.pairs === 0) throw invalid('The runs have no verdicts on this study’s items and criteria; there is nothing to combine.');

  const recipe: JudgeRunRecipe = { rule, runs: runs.map((r) => r.name), missing, counts };
  inTransaction(db, () => {
    // Checked again inside the write lock: two requests with the same name cannot both pass.
    if (judgeRunsQ.judgeRunExists(db, studyId, name)) throw conflict(`A judge run named "${name}" already exists in this study; choose another name.`);
    const runId = judgeRunsQ.insertCombinedJudgeRun(db, { studyId, name, recipe: JSON.stringify(recipe), createdBy: actor.id });
    for (const [itemId, criterion, label] of verdicts) judgeRunsQ.insertJudgeLabel(db, runId, [itemId, criterion, 0, label, null]);
    audit(db, { userId: actor.id, action: 'judge_runs_combined', studyId, objectId: runId, detail: { name, ...recipe } });
  });
  return { studyId, run: name, recipe };
}
