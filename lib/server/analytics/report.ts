import 'server-only';
import type { ReportDtos, ReportName } from '@/lib/io/report-csv';
import type { Actor } from '../actor';
import { agreementReport } from './agreement';
import { alignmentReport } from './alignment';
import { biasReport } from './bias';
import { certifyReport } from './certify';
import { hybridReport } from './hybrid';
import { leaderboardReport } from './leaderboard';
import { rubricBiasReport } from './rubric-bias';
import { rubricCertifyReport } from './rubric-certify';
import { rubricAgreementReport, rubricAlignmentReport, rubricHybridReport, rubricLeaderboardReport } from './rubric-reports';

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

/** Computes one report, synchronously, in this process (the CLI, the report process, point estimates). */
export function computeReport<R extends ReportName>(actor: Actor, studyId: number, name: R, o: ReportOptions): ReportDtos[R] {
  const dto = (() => {
    switch (name) {
      case 'agreement':
        return agreementReport(actor, studyId, { bootstrap: o.bootstrap });
      case 'alignment':
        return alignmentReport(actor, studyId, { judge: o.judge ?? '', bootstrap: o.bootstrap });
      case 'leaderboard':
        return leaderboardReport(actor, studyId, { tiePolicy: o.tiePolicy, bootstrap: o.bootstrap });
      case 'hybrid':
        return hybridReport(actor, studyId, { judge: o.judge ?? '', criterion: o.criterion, target: o.target });
      case 'certify':
        return certifyReport(actor, studyId, { judge: o.judge ?? '', criterion: o.criterion, target: o.target, epsilon: o.epsilon });
      case 'bias':
        return biasReport(actor, studyId);
      case 'rubric-agreement':
        return rubricAgreementReport(actor, studyId, { bootstrap: o.bootstrap });
      case 'rubric-alignment':
        return rubricAlignmentReport(actor, studyId, { judge: o.judge ?? '', sample: o.sample, bootstrap: o.bootstrap });
      case 'rubric-leaderboard':
        return rubricLeaderboardReport(actor, studyId, { sample: o.sample });
      case 'rubric-hybrid':
        return rubricHybridReport(actor, studyId, {
          judge: o.judge ?? '',
          criterion: o.criterion,
          target: o.target,
          lenient: o.lenient,
          sample: o.sample,
        });
    }
    throw new Error(`unknown report ${String(name)}`);
  })();
  return dto as ReportDtos[R];
}
