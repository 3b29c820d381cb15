import 'server-only';
import type { ReportDtos, ReportName } from '@/lib/io/report-csv';
import type { Actor } from '../actor';
import { agreementReport } from './agreement';
import { alignmentReport } from './alignment';
import { biasReport } from './bias';
import { certifyReport } from './certify';
import { hybridReport } from './hybrid';
import { leaderboardReport } from './leaderboard';

/** A report's options as they come from a query string or the command line; each use-case parses its own. */
export type ReportOptions = {
  judge?: string;
  criterion?: string;
  target?: string;
  epsilon?: string;
  tiePolicy?: string;
  bootstrap?: string;
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
    }
    throw new Error(`unknown report ${String(name)}`);
  })();
  return dto as ReportDtos[R];
}
