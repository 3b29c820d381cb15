import { Link } from '@/components/ui/link';

/** Under a rubric study's name: its judge runs, reachable from the draft on (pairwise links them from its overview). */
export function RubricHeaderLinks({ studyId }: { studyId: number }) {
  return (
    <p className="mt-1 text-sm">
      <Link href={`/studies/${studyId}/judges`} className="text-accent-700 hover:underline">
        Judge runs
      </Link>
    </p>
  );
}
