/**
 * Above the certification card: it answers two questions that can seem to contradict each other ("keep labelling"
 * beside "the judge can replace an annotator"), so one line says how they differ.
 */
export function CertifyQuestions() {
  return (
    <p className="text-sm text-slate-600" data-testid="certify-questions">
      <strong className="font-medium text-slate-800">Two different questions below.</strong> Certification asks whether the judge agrees
      with the settled ground truth at least as often as the target, and says “keep labelling” until its bounds are sure. The alternative
      annotator test asks whether the judge agrees with the reviewers at least as well as one of them does: a judge can match reviewers who
      often disagree among themselves and still fall short of the target, so both answers can hold at once.
    </p>
  );
}
