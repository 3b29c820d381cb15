/**
 * The lead's load during the soak: the large upload and the judge run at their times, every dashboard every 30 s,
 * and ground-truth exports every 5 minutes (the schedule compressed for a run shorter than 20 minutes).
 */
import fs from 'node:fs';
import { type HttpPerson, sleep } from '../own-server';
import { check, counters, data, now, pages as pageTimes, record } from './measures';

/** The demo's pairwise study with people's labels, a judge and a ground truth. */
export const PANDALM = 5;

export type LeadWork = {
  lead: HttpPerson;
  /** The study the annotators work in, the draft study of the large upload, the pairwise study of the judge run. */
  flowStudy: number;
  bigStudy: number;
  pairStudy: number;
  /** The upload's file of `flows` flows and the judge run's file of `verdicts` verdicts. */
  flowsFile: string;
  flows: number;
  judgeFile: string;
  verdicts: number;
  /** When the load ends, on the load's clock. */
  until: number;
  /** The schedule: when something due at `ms` of a 20-minute run happens in this one. */
  at: (ms: number) => number;
  /** Notes an event of the run (printed at once and in the report). */
  event: (s: string) => void;
};

/** The lead's dashboards: every page a lead reads, one after the other. */
function dashboardPages(flowStudy: number, bigStudy: number, pairStudy: number): string[] {
  const analytics = ['/agreement', '/alignment', '/leaderboard', '/hybrid', '/bias'];
  return [
    // Where a lead lands: '/' sends staff with no review work of their own here (307).
    '/studies',
    `/studies/${flowStudy}`,
    `/studies/${flowStudy}/items`,
    `/studies/${bigStudy}`,
    `/studies/${bigStudy}/items`,
    ...analytics.map((a) => `/studies/${PANDALM}/analytics${a}`),
    `/studies/${pairStudy}`,
    ...analytics.map((a) => `/studies/${pairStudy}/analytics${a}`),
  ];
}

/**
 * After 1 minute the lead uploads the flows into the draft study (the upload route, as the import form does), after
 * 3 minutes the judge run; meanwhile every dashboard every 30 s, and the ground truth of the demo's pairwise study
 * and of the judged study exported from the 4th minute on, every 5 minutes. Resolves when the load has ended and
 * both uploads have been answered.
 */
export async function leadWork(w: LeadWork) {
  const { lead, flowStudy, bigStudy, pairStudy, until, at, event } = w;
  const pages = dashboardPages(flowStudy, bigStudy, pairStudy);
  let nextExport = at(4 * 60_000);
  // The uploads at their times, whatever the dashboards take.
  const uploads = [
    (async () => {
      await sleep(at(60_000));
      event(`lead uploads ${w.flows.toLocaleString('en')} flows`);
      const r = await lead.request('POST', `/api/studies/${bigStudy}/import?format=concord&filename=big.jsonl`, {
        body: await fs.openAsBlob(w.flowsFile),
        headers: { 'content-type': 'application/x-ndjson' },
      });
      check('lead', 'import', r, !!data(r));
      event(`import answered ${r.status} after ${(r.ms / 1000).toFixed(1)} s: ${r.text.slice(0, 160)}`);
    })(),
    (async () => {
      await sleep(at(180_000));
      event(`lead uploads a judge run of ${w.verdicts.toLocaleString('en')} verdicts`);
      const r = await lead.request('POST', `/api/studies/${pairStudy}/judge?format=concord&filename=judge.jsonl`, {
        body: await fs.openAsBlob(w.judgeFile),
        headers: { 'content-type': 'application/x-ndjson' },
      });
      check('lead', 'judge upload', r, !!data(r));
      event(`judge run answered ${r.status} after ${(r.ms / 1000).toFixed(1)} s: ${r.text.slice(0, 160)}`);
    })(),
  ];
  while (now() < until) {
    const round = now();
    for (const url of pages) {
      const r = await lead.get(url);
      record('dashboard', r);
      pageTimes.set(url, [...(pageTimes.get(url) ?? []), r.ms]);
      counters.dashboards++;
      check('lead', `dashboard ${url}`, r);
    }
    if (round >= nextExport) {
      nextExport += at(5 * 60_000);
      for (const study of [PANDALM, pairStudy]) {
        const r = await lead.get(`/api/studies/${study}/export?what=ground-truth&format=jsonl`);
        record('export', r);
        counters.exports++;
        check('lead', `ground-truth export of study ${study}`, r);
        event(
          `ground truth of study ${study} exported: ${r.text.split('\n').filter(Boolean).length} lines in ${(r.ms / 1000).toFixed(1)} s`,
        );
      }
    }
    await sleep(Math.max(0, at(30_000) - (now() - round)));
  }
  await Promise.all(uploads);
}
