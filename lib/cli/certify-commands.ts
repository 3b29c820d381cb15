import { biasReport } from '@/lib/server/analytics/bias';
import { certifyReport } from '@/lib/server/analytics/certify';
import { rubricBiasReport } from '@/lib/server/analytics/rubric-bias';
import { rubricCertifyReport } from '@/lib/server/analytics/rubric-certify';
import { invalid } from '@/lib/server/errors';
import { parseStudyId } from '@/lib/server/studies/studies';
import { cliActor } from '@/lib/server/system/system';
import type { Command } from './commands';
import { isRubricStudy } from './rubric-report-commands';
import { ci, num, out, printJson, required, str } from './format';

type Values = Parameters<Command['run']>[0];



const DECISION: Record<string, string> = { certified: 'certified', refuted: 'refuted', keep_labelling: 'keep labelling' };

/** --lenient and --sample mean something only for rubric studies: refused elsewhere rather than ignored. */
function pairwiseOnly(v: Values) {
  if (v.lenient || v.sample !== undefined) throw invalid('--lenient and --sample are for rubric studies.');
}

function rubricBias(v: Values, studyId: number) {
  const r = rubricBiasReport(cliActor(), studyId, { lenient: v.lenient === true, sample: str(v, 'sample') });
  if (v.json) return printJson(r);
  const desired = r.lenient ? 'the desired label or one folded into it' : 'the desired label';
  let text = `Biases in rubric study ${r.studyId} (judge sample ${r.sample}; "desired" is ${desired})\n\n`;
  text += 'Leniency: share of desired labels, judge vs ground truth on the same replies (McNemar exact test):\n';
  if (!r.leniency.length) text += '  — (no judge verdict on a reply with ground truth)\n';
  for (const l of r.leniency)
    text +=
      `  ${l.judge} / ${l.criterion}: ${l.n} replies, judge ${num(l.judgeShare)} vs ground truth ${num(l.groundTruthShare)}; ` +
      `${l.judgeOnly} desired only by the judge, ${l.groundTruthOnly} only by the ground truth, p ${num(l.judgeMoreLenient.pValue, 4)}\n`;
  text += '\nLength bias (logistic slope of the desired label on ln(1 + reply length)):\n';
  if (r.lengthReason) text += `  — (${r.lengthReason})\n`;
  for (const l of r.length)
    text += `  ${l.grader} / ${l.criterion}: ${l.n} replies, slope ${num(l.slope)}${ci(l.intervals.slope)}, p ${num(l.pValue, 4)}\n`;
  out(text);
}

export const CERTIFY_COMMANDS: Command[] = [
  {
    name: 'report certify',
    usage:
      'report certify --study STUDY --judge NAME [--criterion overall] [--target 0.9] [--epsilon 0.2] [--lenient] [--sample 1] [--json]',
    summary:
      'Certifies a judge run while people label: anytime-valid 95 % bounds on its alignment with ground truth (items in the\n' +
      '      order their ground truth was settled), certified / refuted / keep labelling; and the alternative annotator test.\n' +
      '      Rubric studies: --criterion names a dimension (the first by default), --lenient folds labels, --sample picks one.',
    options: {
      study: { type: 'string' },
      judge: { type: 'string' },
      criterion: { type: 'string' },
      target: { type: 'string' },
      epsilon: { type: 'string' },
      lenient: { type: 'boolean' },
      sample: { type: 'string' },
      json: { type: 'boolean' },
    },
    run(v) {
      const studyId = parseStudyId(required(v, 'study'));
      const o = { judge: required(v, 'judge'), criterion: str(v, 'criterion'), target: str(v, 'target'), epsilon: str(v, 'epsilon') };
      const rubric = isRubricStudy(studyId)
        ? rubricCertifyReport(cliActor(), studyId, { ...o, lenient: v.lenient === true, sample: str(v, 'sample') })
        : null;
      if (!rubric) pairwiseOnly(v);
      const r = rubric ?? certifyReport(cliActor(), studyId, o);
      if (v.json) return printJson(r);
      const what = rubric ? ` (judge sample ${rubric.sample}${rubric.lenient ? ', labels folded leniently' : ''})` : '';
      let text =
        `Certifying "${r.judge}" on ${r.criterion}${what} against a target alignment of ${r.target} (study ${r.studyId}):\n` +
        `  ${r.agree} of ${r.n} ground-truth labels matched (${num(r.alignmentRate)}), ${r.unjudged} without a verdict\n` +
        `  anytime-valid 95 % bounds${ci(r.bounds) || ` — (${r.bounds.reason})`}\n` +
        `  decision: ${r.decision ? DECISION[r.decision] : `— (${r.decisionReason})`}` +
        (r.decision === 'keep_labelling' ? ` (about ${num(r.itemsNeeded, 0)} more items at the current rate)` : '') +
        '\n' +
        (r.drift ? '  the observed rate lies outside the bounds: the alignment changed along the settle order\n' : '');
      text += `\nAlternative annotator test (ε ${r.altTest.epsilon}, items with ≥ ${r.altTest.minReviewers} reviewers):\n`;
      for (const c of r.altTest.criteria) {
        text +=
          `  ${c.criterion}: ${c.itemsUsed} items, ${c.annotatorsTested} annotator(s) tested, ω ${num(c.winningRate)}, ρ ${num(c.advantageProbability)} → ` +
          (c.judgeCanReplace === null
            ? `— (${c.judgeCanReplaceReason})`
            : c.judgeCanReplace
              ? 'the judge can replace an annotator'
              : 'the judge cannot replace an annotator') +
          '\n';
        for (const a of c.annotators)
          text += `    ${a.annotator}: ${a.items} items, ρ judge ${num(a.rhoJudge)}, ρ human ${num(a.rhoHuman)}, p ${num(a.pValue, 4)}, BY ${num(a.pAdjusted, 4)}${a.judgeWins ? ' (judge wins)' : ''}\n`;
      }
      out(text);
    },
  },
  {
    name: 'report bias',
    usage: 'report bias --study STUDY [--lenient] [--sample 1] [--json]',
    summary:
      'Position bias of each judge run (verdicts in both orders) and of the reviewers (stored display order), and length\n' +
      '      bias of the ground truth and of each judge run (win share by length-difference quintile, logistic slope).\n' +
      "      Rubric studies: each judge run's leniency against the ground truth, and the length bias of the desired label.",
    options: { study: { type: 'string' }, lenient: { type: 'boolean' }, sample: { type: 'string' }, json: { type: 'boolean' } },
    run(v) {
      const studyId = parseStudyId(required(v, 'study'));
      if (isRubricStudy(studyId)) return rubricBias(v, studyId);
      pairwiseOnly(v);
      const r = biasReport(cliActor(), studyId);
      if (v.json) return printJson(r);
      let text = `Biases in study ${r.studyId}\n\nJudge position bias (items judged in both orders):\n`;
      for (const j of r.judgePosition)
        text += `  ${j.judge} / ${j.criterion}: ${j.itemsBothOrders} of ${j.items} items in both orders, flip rate ${num(j.flipRate)}, first shown preferred ${num(j.firstPreferred.rate)}${ci(j.firstPreferred.interval)}\n`;
      text += '\nReviewers preferring the reply shown first:\n';
      if (r.humanPositionReason) text += `  — (${r.humanPositionReason})\n`;
      for (const h of r.humanPosition)
        text += `  ${h.criterion} / ${h.reviewer ?? 'all reviewers'}: ${num(h.firstPreferred.rate)}${ci(h.firstPreferred.interval)} of ${h.firstPreferred.decisive} decisive labels, p ${num(h.firstPreferred.pValue, 4)}\n`;
      text += '\nLength bias (logistic slope of a winning on sign(d)·ln(1 + |d|)):\n';
      for (const l of r.length)
        text += `  ${l.grader} / ${l.criterion}: ${l.n} items, slope ${num(l.slope)}${ci(l.intervals.slope)}, p ${num(l.pValue, 4)}\n`;
      out(text);
    },
  },
];
