import { expect, test, type APIRequestContext, type APIResponse } from '@playwright/test';
import { ANN, ApiSpecServer, LEAD, OTHER, SECRET, bearer, jsonl, pairwiseItems } from './support/api-spec';

/*
 * Reviewing and reading over the HTTP API, against the production build on a server and database of this spec's
 * own: a lead's whole pipeline (study, items, judge run, members, open; ground truth and a report, the same JSON
 * as the command line's), an annotator's queue and submissions for both kinds, and each role's refusals. Every
 * JSON answer is checked against the OpenAPI document the server serves. Imports through the body: api-data.spec.ts.
 */
const PORT = 3970;

let spec: ApiSpecServer;
let api: APIRequestContext;
const cli = (args: string[], input?: string) => spec.cli(args, input);
const tokenOf = (username: string, name: string) => spec.tokenOf(username, name);
const sql = <T>(query: string, ...args: unknown[]) => spec.sql<T>(query, ...args);
const documented = (res: APIResponse, method: string, template: string) => spec.documented(res, method, template);
const createStudy = (token: string, body: Record<string, unknown>) => spec.createStudy(token, body);

test.beforeAll(async () => {
  test.setTimeout(120_000);
  spec = new ApiSpecServer(PORT);
  await spec.start();
  api = spec.api;
});

test.afterAll(async () => {
  await spec?.stop();
});

test('a lead imports items and a judge run, an annotator reviews over the API, and the lead reads ground truth and a report', async () => {
  test.setTimeout(120_000);
  const lead = tokenOf(LEAD, 'pipeline');
  const id = await createStudy(lead, { kind: 'pairwise', name: 'API data study', reviewersPerItem: 1 });
  const items = pairwiseItems('pw', 4);

  const post = (url: string, body: string) =>
    api.post(url, { headers: { ...bearer(lead), 'content-type': 'application/x-ndjson' }, data: body });
  const imported = await post(`/api/v1/studies/${id}/items?format=concord&filename=pw.jsonl`, jsonl(items));
  expect(imported.status()).toBe(200);
  expect(await documented(imported, 'POST', '/api/v1/studies/{id}/items')).toEqual({ records: 4, inserted: 4, unchanged: 0 });
  // Sending the same file again changes nothing.
  const again = await post(`/api/v1/studies/${id}/items`, jsonl(items));
  expect(await documented(again, 'POST', '/api/v1/studies/{id}/items')).toEqual({ records: 4, inserted: 0, unchanged: 4 });

  const verdicts = items.map((it) => ({ item: it.id, judge: 'ZQXJUDGE-gpt', labels: { overall: 'win' }, rationale: 'ZQXJUDGE says a' }));
  const judged = await post(`/api/v1/studies/${id}/judge-runs?name=ZQXJUDGE-gpt&format=concord`, jsonl(verdicts));
  expect(judged.status(), await judged.text()).toBe(200);
  expect(await documented(judged, 'POST', '/api/v1/studies/{id}/judge-runs')).toMatchObject({
    run: 'ZQXJUDGE-gpt',
    records: 4,
    unparsed: [],
  });

  await documented(
    await api.put(`/api/v1/studies/${id}/members`, { headers: bearer(lead), data: { reviewers: [ANN] } }),
    'PUT',
    '/api/v1/studies/{id}/members',
  );
  expect((await api.post(`/api/v1/studies/${id}/open`, { headers: bearer(lead) })).status()).toBe(200);

  // The annotator works through the queue over the API; each submission is sent twice (a retry).
  const ann = tokenOf(ANN, 'my-front-end');
  for (let i = 1; i <= items.length; i++) {
    const nextRes = await api.get(`/api/v1/studies/${id}/next`, { headers: bearer(ann) });
    expect(SECRET.test(await nextRes.text())).toBe(false);
    const next = (await documented(nextRes, 'GET', '/api/v1/studies/{id}/next')) as {
      queue: { submitted: number; currentId: number };
      assignment: { assignmentId: number; criteria: { id: string }[] };
    };
    expect(next.queue.submitted).toBe(i - 1);
    expect(next.assignment.assignmentId).toBe(next.queue.currentId);
    const body = {
      requestId: `api-data-${i}-${Date.now()}`,
      activeMs: 1500,
      choices: Object.fromEntries(next.assignment.criteria.map((c) => [c.id, 'r1'])),
    };
    const url = `/api/v1/assignments/${next.assignment.assignmentId}/submission`;
    const first = await api.post(url, { headers: bearer(ann), data: body });
    expect(await documented(first, 'POST', '/api/v1/assignments/{id}/submission')).toMatchObject({
      duplicate: false,
      queue: { submitted: i },
    });
    const retry = await api.post(url, { headers: bearer(ann), data: body });
    expect(await documented(retry, 'POST', '/api/v1/assignments/{id}/submission')).toMatchObject({
      duplicate: true,
      queue: { submitted: i },
    });
    expect(sql<number>('SELECT count(*) FROM annotations WHERE assignment_id = ?', next.assignment.assignmentId)).toBe(1);
  }
  const done = (await documented(
    await api.get(`/api/v1/studies/${id}/next`, { headers: bearer(ann) }),
    'GET',
    '/api/v1/studies/{id}/next',
  )) as {
    assignment: unknown;
    queue: { currentId: number | null };
  };
  expect(done).toMatchObject({ assignment: null, queue: { currentId: null } });

  const gt = await api.get(`/api/v1/studies/${id}/ground-truth?format=jsonl`, { headers: bearer(lead) });
  expect(gt.status()).toBe(200);
  expect(gt.headers()['content-type']).toContain('application/x-ndjson');
  expect(gt.headers()['x-concord-incomplete-items']).toBe('0');
  const rows = (await gt.text())
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { item: string; criterion: string; provenance: string });
  expect(new Set(rows.map((r) => r.item))).toEqual(new Set(items.map((it) => it.id)));
  const csv = await api.get(`/api/v1/studies/${id}/ground-truth?format=csv`, { headers: bearer(lead) });
  expect(csv.headers()['content-type']).toContain('text/csv');
  expect((await csv.text()).split('\n')[0]).toMatch(/^"item","criterion","label","provenance"/);

  const reportRes = await api.get(`/api/v1/studies/${id}/reports/alignment?judge=ZQXJUDGE-gpt&bootstrap=0`, { headers: bearer(lead) });
  const report = await documented(reportRes, 'GET', '/api/v1/studies/{id}/reports/{report}');
  // The same JSON as the command line prints.
  expect(report).toEqual(
    JSON.parse(cli(['report', 'alignment', '--study', String(id), '--judge', 'ZQXJUDGE-gpt', '--bootstrap', '0', '--json'])),
  );
  const bad = await api.get(`/api/v1/studies/${id}/reports/alignment?judge=nobody&bootstrap=0`, { headers: bearer(lead) });
  expect(bad.status()).toBeGreaterThanOrEqual(400);
  await documented(bad, 'GET', '/api/v1/studies/{id}/reports/{report}');
  const unknown = await api.get(`/api/v1/studies/${id}/reports/horoscope`, { headers: bearer(lead) });
  expect(unknown.status()).toBe(404);
  await documented(unknown, 'GET', '/api/v1/studies/{id}/reports/{report}');
});

test("each role's refusals: annotators may not import or read study data, and only a study's reviewers get its items", async () => {
  const lead = tokenOf(LEAD, 'roles');
  const id = await createStudy(lead, { kind: 'pairwise', name: 'API roles', reviewersPerItem: 1 });
  const headers = { ...bearer(lead), 'content-type': 'application/x-ndjson' };
  expect((await api.post(`/api/v1/studies/${id}/items`, { headers, data: jsonl(pairwiseItems('roles', 2)) })).status()).toBe(200);
  await api.put(`/api/v1/studies/${id}/members`, { headers: bearer(lead), data: { reviewers: [ANN] } });
  expect((await api.post(`/api/v1/studies/${id}/open`, { headers: bearer(lead) })).status()).toBe(200);

  const ann = tokenOf(ANN, 'roles');
  const body = { headers: { ...bearer(ann), 'content-type': 'application/x-ndjson' }, data: jsonl(pairwiseItems('sneaky', 1)) };
  const staffOnly: [string, Promise<APIResponse>, string][] = [
    ['POST', api.post(`/api/v1/studies/${id}/items`, body), '/api/v1/studies/{id}/items'],
    ['POST', api.post(`/api/v1/studies/${id}/annotations`, body), '/api/v1/studies/{id}/annotations'],
    ['POST', api.post(`/api/v1/studies/${id}/judge-runs?name=mine`, body), '/api/v1/studies/{id}/judge-runs'],
    ['GET', api.get(`/api/v1/studies/${id}/ground-truth`, { headers: bearer(ann) }), '/api/v1/studies/{id}/ground-truth'],
    [
      'GET',
      api.get(`/api/v1/studies/${id}/reports/agreement?bootstrap=0`, { headers: bearer(ann) }),
      '/api/v1/studies/{id}/reports/{report}',
    ],
  ];
  for (const [method, call, template] of staffOnly) {
    const res = await call;
    expect(res.status(), `${method} ${template}`).toBe(403);
    await documented(res, method, template);
  }
  expect(sql<number>("SELECT count(*) FROM items WHERE external_id LIKE 'sneaky-%'")).toBe(0);

  // Someone who does not review the study gets neither its items nor its assignments.
  const other = tokenOf(OTHER, 'roles');
  const notMine = await api.get(`/api/v1/studies/${id}/next`, { headers: bearer(other) });
  expect([403, 404]).toContain(notMine.status());
  await documented(notMine, 'GET', '/api/v1/studies/{id}/next');
  const next = (await (await api.get(`/api/v1/studies/${id}/next`, { headers: bearer(ann) })).json()) as { queue: { currentId: number } };
  const stolen = await api.post(`/api/v1/assignments/${next.queue.currentId}/submission`, {
    headers: bearer(other),
    data: { requestId: 'stolen-submission', activeMs: 10, choices: { overall: 'r1' } },
  });
  expect([403, 404]).toContain(stolen.status());
  await documented(stolen, 'POST', '/api/v1/assignments/{id}/submission');
  // The submission's rules are the screen's: a body without a requestId is refused, naming the field.
  const noId = await api.post(`/api/v1/assignments/${next.queue.currentId}/submission`, {
    headers: bearer(ann),
    data: { activeMs: 10, choices: { overall: 'r1' } },
  });
  expect(noId.status()).toBe(400);
  expect(
    ((await documented(noId, 'POST', '/api/v1/assignments/{id}/submission')) as { errors: { path: string }[] }).errors.map((e) => e.path),
  ).toContain('body.requestId');
  expect(sql<number>('SELECT count(*) FROM annotations WHERE assignment_id = ?', next.queue.currentId)).toBe(0);
});

test('a flow review over the API: the next flow, a decision submitted, a reused requestId with another decision refused', async () => {
  const lead = tokenOf(LEAD, 'flows');
  const id = await createStudy(lead, { kind: 'flow_review', name: 'API flow review', reviewersPerItem: 1 });
  const flows = [1, 2].map((i) => ({
    id: `apiflow-${i}`,
    problem: { text: `Problem ${i}` },
    steps: [{ speaker: 'tutor', text: 'Hello.' }],
  }));
  const imported = await api.post(`/api/v1/studies/${id}/items`, {
    headers: { ...bearer(lead), 'content-type': 'application/x-ndjson' },
    data: jsonl(flows),
  });
  expect(await documented(imported, 'POST', '/api/v1/studies/{id}/items')).toEqual({ records: 2, inserted: 2, unchanged: 0 });
  await api.put(`/api/v1/studies/${id}/members`, { headers: bearer(lead), data: { reviewers: [ANN] } });
  expect((await api.post(`/api/v1/studies/${id}/open`, { headers: bearer(lead) })).status()).toBe(200);

  const ann = tokenOf(ANN, 'flows');
  const next = (await documented(
    await api.get(`/api/v1/studies/${id}/next`, { headers: bearer(ann) }),
    'GET',
    '/api/v1/studies/{id}/next',
  )) as {
    assignment: { kind: string; assignmentId: number; flow: { steps: unknown[] } };
  };
  expect(next.assignment).toMatchObject({ kind: 'flow_review', flow: { steps: [{ speaker: 'tutor', text: 'Hello.' }] } });
  const url = `/api/v1/assignments/${next.assignment.assignmentId}/submission`;
  const requestId = `api-flow-${Date.now()}`;
  const ok = await api.post(url, { headers: bearer(ann), data: { requestId, activeMs: 900, decision: { decision: 'verify' } } });
  expect(await documented(ok, 'POST', '/api/v1/assignments/{id}/submission')).toMatchObject({ duplicate: false, queue: { submitted: 1 } });
  // The screen's rule: the same requestId with another decision is a conflict, and nothing is written.
  const other = await api.post(url, {
    headers: bearer(ann),
    data: { requestId, activeMs: 900, decision: { decision: 'discard', reasons: ['off_topic'] } },
  });
  expect(other.status(), await other.text()).toBe(409);
  await documented(other, 'POST', '/api/v1/assignments/{id}/submission');
  expect(sql<number>('SELECT count(*) FROM annotations WHERE assignment_id = ?', next.assignment.assignmentId)).toBe(1);
});
