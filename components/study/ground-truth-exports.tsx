import { exportLink } from './section';

/** The two downloads of a study's ground truth, the same for every kind that has one. */
export function GroundTruthExports({ studyId }: { studyId: number }) {
  return (
    <>
      <a href={exportLink(studyId, 'ground-truth', 'jsonl')} className="rounded-md border border-slate-300 px-3 py-1.5" download>
        Ground truth (JSONL)
      </a>
      <a href={exportLink(studyId, 'ground-truth', 'csv')} className="rounded-md border border-slate-300 px-3 py-1.5" download>
        Ground truth (CSV)
      </a>
    </>
  );
}
