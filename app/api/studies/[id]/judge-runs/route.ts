import { json, route } from '@/lib/auth/handlers';
import { listStudyJudgeRuns } from '@/lib/server/judges/judges';
import { parseStudyId } from '@/lib/server/studies/studies';

/** The study's judge runs with the launched ones' progress; polled by the judge-runs page while a run goes. */
export const GET = route((actor, _req, { id }) => json(listStudyJudgeRuns(actor, parseStudyId(id))));
