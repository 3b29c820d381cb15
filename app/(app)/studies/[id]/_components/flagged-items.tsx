import type { FlaggedItemDto } from '@/lib/server/review/dto';
import { Table, TBody, TD, TH, THead, TR } from '@/components/ui/table';
import { Section } from '@/components/study/section';

/** The items reviewers flagged, with who flagged each and why, newest first (leads and admins only). */
export function FlaggedItems({ flagged }: { flagged: FlaggedItemDto[] }) {
  return (
    <Section title={`Flagged items (${flagged.length})`} id="flagged-items">
      {flagged.length === 0 ? (
        <p className="text-sm text-slate-500" data-testid="flagged-none">
          No reviewer has flagged an item. Reviewers flag an item (key f) when something about it keeps them from judging it.
        </p>
      ) : (
        <Table caption="Flagged items" captionHidden>
          <THead>
            <TR>
              <TH>Item</TH>
              <TH>Flagged by</TH>
              <TH>Reason</TH>
              <TH>Comment</TH>
              <TH>When</TH>
              <TH>Labels</TH>
            </TR>
          </THead>
          <TBody>
            {flagged.map((f) => (
              <TR key={f.assignmentId} data-testid="flagged-row">
                <TD className="whitespace-nowrap">
                  {f.position} <span className="font-mono text-xs text-slate-500">{f.externalId}</span>
                </TD>
                <TD>{f.reviewer}</TD>
                <TD className="max-w-md">{f.reason}</TD>
                <TD className="max-w-md text-slate-600">{f.comment ?? '—'}</TD>
                <TD className="whitespace-nowrap text-slate-600">
                  <time dateTime={f.flaggedAt}>{f.flaggedAt.replace('T', ' ').slice(0, 16)} UTC</time>
                </TD>
                <TD>{f.submitted ? 'submitted' : 'pending'}</TD>
              </TR>
            ))}
          </TBody>
        </Table>
      )}
    </Section>
  );
}
