import 'server-only';
import type { ReportDtos, ReportName } from './dto';
import type { Actor } from '../actor';
import { agreementReport } from './agreement';
import { alignmentReport } from './alignment';
import { biasReport } from './bias';
import { certifyReport } from './certify';
import { hybridReport } from './hybrid';
import { leaderboardReport } from './leaderboard';
import { rubricBiasReport } from './rubric-bias';
import { rubricCertifyReport } from './rubric-certify';
import { rubricAgreementReport } from './rubric-agreement';
import { rubricAlignmentReport } from './rubric-alignment';
import { rubricHybridReport } from './rubric-hybrid';
import { rubricLeaderboardReport } from './rubric-leaderboard';

/** A report's options as they come from a query string or the command line; each use-case parses its own. */
export type ReportOptions = {
  judge?: string;
  criterion?: string;
  target?: string;
  epsilon?: string;
  tiePolicy?: string;
  bootstrap?: string;
  /** Rubric studies: the judge sample to read (1 by default) and whether the hybrid plan folds labels leniently. */
  sample?: string;
  lenient?: string;
};

type Compute = { [R in ReportName]: (actor: Actor, studyId: number, o: ReportOptions) => ReportDtos[R] };

/** Every report by name: a report added to ReportName without a line here does not compile. */
const COMPUTE: Compute = {
  agreement: (actor, studyId, o) => agreementReport(actor, studyId, { bootstrap: o.bootstrap }),
  alignment: (actor, studyId, o) => alignmentReport(actor, studyId, { judge: o.judge ?? '', bootstrap: o.bootstrap }),
  leaderboard: (actor, studyId, o) => leaderboardReport(actor, studyId, { tiePolicy: o.tiePolicy, bootstrap: o.bootstrap }),
  hybrid: (actor, studyId, o) => hybridReport(actor, studyId, { judge: o.judge ?? '', criterion: o.criterion, target: o.target }),
  certify: (actor, studyId, o) =>
    certifyReport(actor, studyId, { judge: o.judge ?? '', criterion: o.criterion, target: o.target, epsilon: o.epsilon }),
  bias: (actor, studyId) => biasReport(actor, studyId),
  'rubric-agreement': (actor, studyId, o) => rubricAgreementReport(actor, studyId, { bootstrap: o.bootstrap }),
  'rubric-alignment': (actor, studyId, o) =>
    rubricAlignmentReport(actor, studyId, { judge: o.judge ?? '', sample: o.sample, bootstrap: o.bootstrap }),
  'rubric-leaderboard': (actor, studyId, o) => rubricLeaderboardReport(actor, studyId, { sample: o.sample }),
  'rubric-hybrid': (actor, studyId, o) =>
    rubricHybridReport(actor, studyId, {
      judge: o.judge ?? '',
      criterion: o.criterion,
      target: o.target,
      lenient: o.lenient,
      sample: o.sample,
    }),
  'rubric-certify': (actor, studyId, o) =>
    rubricCertifyReport(actor, studyId, {
      judge: o.judge ?? '',
      criterion: o.criterion,
      target: o.target,
      epsilon: o.epsilon,
      lenient: o.lenient,
      sample: o.sample,
    }),
  'rubric-bias': (actor, studyId, o) => rubricBiasReport(actor, studyId, { sample: o.sample, lenient: o.lenient }),
};

/** Computes one report, synchronously, in this process (the CLI, the report process, point estimates). */
export function computeReport<R extends ReportName>(actor: Actor, studyId: number, name: R, o: ReportOptions): ReportDtos[R] {
  const compute = COMPUTE[name] as ((actor: Actor, studyId: number, o: ReportOptions) => ReportDtos[R]) | undefined;
  if (!compute) throw new Error(`unknown report ${String(name)}`);
  return compute(actor, studyId, o);
}
