import { json, route } from '@/lib/auth/handlers';
import { unreadableJudgeAnswers } from '@/lib/server/judges/judges';
import { parseStudyId } from '@/lib/server/studies/studies';

/** A launched run's unreadable answers with the judge's raw text (leads and admins only). */
export const GET = route((actor, _req, { id, runId }) => {
  parseStudyId(id);
  return json(unreadableJudgeAnswers(actor, parseStudyId(runId)));
});
