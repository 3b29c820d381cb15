/**
 * The simulated annotators of the soak: each one at human pace through their queue, with drafts, reloads, submits
 * sent twice at once or retried, and undos, every acknowledged submission kept for the checks at the end.
 */
import { newRequestId } from '@/e2e/support/load';
import { type HttpPerson, type Reply, sleep } from '../own-server';
import { acks, check, counters, data, now, record } from './measures';

type Queue = { currentId: number | null; submitted: number; total: number };
type SubmitData = { assignmentId: number; revision: number; duplicate: boolean; queue: Queue };

/** The ids of the review screen's server actions the annotators call. */
export type ReviewActions = { undo: string };

/** A server action's result, `{ ok, data }`, from its RSC answer (the line that carries it). */
function actionResult<T>(r: Reply): { ok: boolean; data?: T; error?: string } | null {
  if (r.status !== 200) return null;
  for (const line of r.text.split('\n')) {
    const m = /^1:(\{.*\})$/.exec(line);
    if (m) return JSON.parse(m[1]) as { ok: boolean; data?: T };
  }
  return null;
}

/**
 * One annotator working in `study` until the load's clock reaches `until`: starts within the schedule's first
 * minute (`at`), then, item after item, reads it, works on it 8–40 s saving a draft every 3–6 s (sometimes
 * reloading the screen instead), submits (3 % twice at once with one request id, 5 % sent again after their
 * answer), and undoes 3 % of submissions at once to submit the item again after a short look.
 */
export async function annotator(
  p: HttpPerson,
  study: number,
  ids: ReviewActions,
  until: number,
  random: () => number,
  at: (ms: number) => number,
) {
  const page = `/studies/${study}/review`;
  const between = (a: number, b: number) => a + (b - a) * random();
  await sleep(between(0, at(60_000)));
  let current: number | null = null;
  const reload = async () => {
    counters.reloads++;
    const html = await p.get(page);
    record('reload', html);
    check(p.username, 'reload page', html);
    const q = await p.get(`/api/studies/${study}/queue`);
    if (!check(p.username, 'queue', q)) return null;
    return (q.body as Queue).currentId;
  };
  current = await reload();
  while (now() < until && current !== null) {
    const id: number = current;
    const item = await p.get(`/api/assignments/${id}`);
    record('next item', item);
    const view = item.body as { state?: string } | null;
    if (!check(p.username, 'next item', item, item.status === 200 && view?.state === 'pending')) {
      current = await reload();
      continue;
    }
    // Working on the item: a draft every 3–6 s, sometimes a reload of the screen.
    const workMs = between(8_000, 40_000);
    const start = now();
    let reloaded = false;
    while (now() - start < workMs && now() < until) {
      await sleep(Math.min(between(3_000, 6_000), Math.max(0, workMs - (now() - start))));
      if (now() - start >= workMs) break;
      if (!reloaded && random() < 0.04) {
        reloaded = true;
        const again = await reload();
        if (again !== id) check(p.username, 'reload', { status: 0, body: null, text: `current ${again}, expected ${id}`, ms: 0 }, false);
        continue;
      }
      counters.drafts++;
      // As the review screen saves a draft: the draft route, JSON in and out.
      const d = await p.post(`/api/assignments/${id}/draft`, {
        draft: { decision: 'verify', note: `draft ${Math.round(now())}` },
        activeMs: Math.round(now() - start),
      });
      record('draft', d);
      check(p.username, 'draft', d, d.status === 200 && (d.body as { ok?: boolean } | null)?.ok === true);
    }
    if (now() >= until) break;

    const requestId = newRequestId(p.username);
    const body = { requestId, activeMs: Math.round(workMs), decision: { decision: 'verify' } };
    const roll = random();
    counters.submits++;
    let answer: SubmitData | null;
    if (roll < 0.03) {
      counters.doubles++;
      const both = await Promise.all([
        p.post(`/api/assignments/${id}/submission`, body),
        p.post(`/api/assignments/${id}/submission`, body),
      ]);
      both.forEach((r) => record('submit', r));
      const ds = both.map((r) => data<SubmitData>(r));
      if (!check(p.username, 'double submit', both[0], ds.every(Boolean) && ds.filter((x) => !x!.duplicate).length === 1)) {
        current = await reload();
        continue;
      }
      answer = ds.find((x) => !x!.duplicate)!;
    } else {
      const r = await p.post(`/api/assignments/${id}/submission`, body);
      record('submit', r);
      answer = data<SubmitData>(r);
      if (!check(p.username, 'submit', r, !!answer && !answer.duplicate)) {
        current = await reload();
        continue;
      }
      if (roll < 0.08) {
        counters.retries++;
        const again = await p.post(`/api/assignments/${id}/submission`, body);
        record('submit', again);
        const a2 = data<SubmitData>(again);
        check(p.username, 'retry', again, !!a2 && a2.duplicate && a2.revision === answer!.revision);
      }
    }
    acks.push({ username: p.username, assignmentId: id, requestId, at: Date.now() });
    current = answer!.queue.currentId;

    if (random() < 0.03) {
      counters.undos++;
      const u = await p.action(page, ids.undo, [{ studyId: study }]);
      record('undo', u);
      const res = actionResult<{ assignmentId: number; queue: Queue }>(u);
      if (check(p.username, 'undo', u, res?.ok === true && res.data!.assignmentId === id && res.data!.queue.currentId === id)) {
        current = id;
        await sleep(between(2_000, 5_000));
      } else {
        current = await reload();
      }
    }
  }
}
