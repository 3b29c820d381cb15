'use client';

import { useState, useTransition } from 'react';
import type { PersonDto } from '@/lib/server/accounts/dto';
import type { GuidelineVersionDto } from '@/lib/server/studies/dto';
import { addReviewerAction, editStudyAction, replaceReviewerAction, setArchivedAction, setDeadlineAction } from '../../actions';

type Result = { ok: boolean; error?: string; fieldErrors?: Record<string, string> };

/** Runs one action at a time and keeps its outcome (error or a short confirmation) beside the form that sent it. */
function useRunner() {
  const [pending, start] = useTransition();
  const [outcome, setOutcome] = useState<{ form: string; ok: boolean; text: string } | null>(null);
  const run = (form: string, fn: () => Promise<Result>, success: (r: Result) => string) =>
    start(async () => {
      const res = await fn();
      const fields = res.fieldErrors ? Object.values(res.fieldErrors).join(' ') : '';
      setOutcome({ form, ok: res.ok, text: res.ok ? success(res) : [res.error ?? 'Failed.', fields].filter(Boolean).join(' ') });
    });
  const note = (form: string) =>
    outcome?.form === form ? (
      <p role={outcome.ok ? 'status' : 'alert'} className={`text-sm ${outcome.ok ? 'text-emerald-700' : 'text-red-700'}`}>
        {outcome.text}
      </p>
    ) : null;
  return { pending, run, note };
}

const input = 'mt-1 block w-full rounded-md border border-slate-300 px-3 py-1.5 text-sm';
const button = 'rounded-md bg-accent-600 px-3 py-1.5 text-sm font-medium text-white hover:bg-accent-700 disabled:opacity-60';

/** Editing a draft or open study: name and guidelines (versioned), deadline, reviewers. */
export function StudySettings({
  studyId,
  status,
  name,
  guidelines,
  deadline,
  members,
  adjudicator,
  people,
  versions,
}: {
  studyId: number;
  status: 'draft' | 'open' | 'closed';
  name: string;
  guidelines: string;
  deadline: string | null;
  members: string[];
  adjudicator: string | null;
  people: PersonDto[];
  versions: GuidelineVersionDto[];
}) {
  const { pending, run, note } = useRunner();
  const [newName, setNewName] = useState(name);
  const [text, setText] = useState(guidelines);
  const [day, setDay] = useState(deadline?.slice(0, 10) ?? '');
  const [from, setFrom] = useState(members[0] ?? '');
  const candidates = people.filter((p) => p.username !== adjudicator);
  const [to, setTo] = useState(candidates.find((p) => !members.includes(p.username))?.username ?? '');
  const [added, setAdded] = useState(candidates.find((p) => !members.includes(p.username))?.username ?? '');

  return (
    <div className="grid gap-6 lg:grid-cols-2" data-testid="study-settings">
      <form
        className="space-y-2"
        onSubmit={(e) => {
          e.preventDefault();
          run(
            'edit',
            () => editStudyAction(studyId, { name: newName, guidelines: text }),
            () => 'Saved. Reviewers see the new guidelines from their next item.',
          );
        }}
      >
        <label className="block text-sm font-medium text-slate-700">
          Name
          <input className={input} value={newName} onChange={(e) => setNewName(e.target.value)} maxLength={200} />
        </label>
        <label className="block text-sm font-medium text-slate-700">
          Guidelines (Markdown; version {versions[0]?.version ?? 1})
          <textarea className={`${input} h-40 font-mono`} value={text} onChange={(e) => setText(e.target.value)} />
        </label>
        <button type="submit" disabled={pending} className={button}>
          Save name and guidelines
        </button>
        {note('edit')}
        {versions.length > 1 && (
          <details className="text-sm">
            <summary className="cursor-pointer text-slate-600">Earlier versions ({versions.length - 1})</summary>
            <ol className="mt-2 space-y-2" data-testid="guideline-versions">
              {versions.slice(1).map((v) => (
                <li key={v.version} className="rounded border border-slate-200 p-2">
                  <p className="text-xs text-slate-500">
                    Version {v.version} · {v.createdAt.slice(0, 16).replace('T', ' ')} UTC{v.author ? ` · ${v.author}` : ''}
                  </p>
                  <pre className="mt-1 max-h-32 overflow-auto whitespace-pre-wrap text-xs">{v.guidelines || '(empty)'}</pre>
                </li>
              ))}
            </ol>
          </details>
        )}
      </form>

      <div className="space-y-6">
        <form
          className="space-y-2"
          onSubmit={(e) => {
            e.preventDefault();
            run(
              'deadline',
              () => setDeadlineAction(studyId, day),
              () => `Deadline set to ${day}.`,
            );
          }}
        >
          <label className="block text-sm font-medium text-slate-700">
            Deadline {deadline ? `(now ${deadline.slice(0, 10)})` : '(none yet)'}
            <input type="date" className={input} value={day} onChange={(e) => setDay(e.target.value)} required />
          </label>
          <button type="submit" disabled={pending} className={button}>
            {deadline ? 'Move deadline' : 'Add deadline'}
          </button>
          {note('deadline')}
        </form>

        {status === 'open' && (
          <>
            <form
              className="space-y-2"
              onSubmit={(e) => {
                e.preventDefault();
                run(
                  'replace',
                  () => replaceReviewerAction(studyId, from, to),
                  (r) => {
                    const d = (r as Result & { data?: { moved: number; keptWithEarlierRevisions: number } }).data;
                    return `${d?.moved ?? 0} pending item(s) moved from ${from} to ${to}; ${from}'s submitted work stays theirs.`;
                  },
                );
              }}
            >
              <p className="text-sm font-medium text-slate-700">Replace a reviewer who left</p>
              <div className="flex flex-wrap items-end gap-2">
                <label className="text-sm">
                  Reviewer
                  <select className={input} value={from} onChange={(e) => setFrom(e.target.value)}>
                    {members.map((m) => (
                      <option key={m}>{m}</option>
                    ))}
                  </select>
                </label>
                <label className="text-sm">
                  Taken over by
                  <select className={input} value={to} onChange={(e) => setTo(e.target.value)}>
                    {candidates
                      .filter((p) => p.username !== from)
                      .map((p) => (
                        <option key={p.username} value={p.username}>
                          {p.username}
                        </option>
                      ))}
                  </select>
                </label>
                <button type="submit" disabled={pending || !from || !to} className={button}>
                  Replace
                </button>
              </div>
              {note('replace')}
            </form>

            <form
              className="space-y-2"
              onSubmit={(e) => {
                e.preventDefault();
                run(
                  'add',
                  () => addReviewerAction(studyId, added),
                  () => `${added} is now a reviewer of this study.`,
                );
              }}
            >
              <p className="text-sm font-medium text-slate-700">Add a reviewer</p>
              <div className="flex flex-wrap items-end gap-2">
                <label className="text-sm">
                  Account
                  <select className={input} value={added} onChange={(e) => setAdded(e.target.value)}>
                    {candidates
                      .filter((p) => !members.includes(p.username))
                      .map((p) => (
                        <option key={p.username} value={p.username}>
                          {p.username}
                        </option>
                      ))}
                  </select>
                </label>
                <button type="submit" disabled={pending || !added} className={button}>
                  Add
                </button>
              </div>
              <p className="text-xs text-slate-500">
                Added reviewers get work from review queues opened later, or by taking over someone's pending items.
              </p>
              {note('add')}
            </form>
          </>
        )}
      </div>
    </div>
  );
}

/** Archive a closed study (or bring an archived one back to the list). */
export function ArchiveButton({ studyId, archived }: { studyId: number; archived: boolean }) {
  const { pending, run, note } = useRunner();
  return (
    <div className="flex items-center gap-2">
      <button
        type="button"
        disabled={pending}
        onClick={() =>
          run(
            'archive',
            () => setArchivedAction(studyId, !archived),
            () => (archived ? 'Back in the studies list.' : 'Archived.'),
          )
        }
        className="rounded-md border border-slate-300 bg-white px-3 py-1.5 text-sm disabled:opacity-60"
      >
        {archived ? 'Unarchive' : 'Archive study'}
      </button>
      {note('archive')}
    </div>
  );
}
