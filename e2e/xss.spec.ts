import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Browser, type Page } from '@playwright/test';
import { concord } from './support/cli';
import { asUser } from './support/session';

/*
 * Imported data and names typed by staff are rendered as text (DESIGN "Non-negotiables"): each payload below tries
 * to run script (setting window.__xss or opening a dialog) or to plant a javascript:/data: link. They are put in
 * every place that shows such text — flow problems, solutions, materials, steps, pairwise problems, instructions,
 * history and replies, criteria names and descriptions, guidelines, item ids, study names, account names — and
 * every page that shows them is visited by someone who may see it. Each payload carries a marker (XSSnn) outside
 * its markup so that the test can also check the text is still shown.
 */

const PASSWORD = 'xss-pass-2026';

// Each payload sets window.__xss (or calls alert) if it ever runs. Markers come first, in plain text.
const PAYLOADS: string[] = [
  'XSS01 <script>window.__xss=1</script>',
  'XSS02 <img src=x onerror="window.__xss=2">',
  'XSS03 <svg onload=window.__xss=3>',
  'XSS04 "><script>window.__xss=4</script>',
  "XSS05 '><img src=x onerror=alert(5)>",
  'XSS06 [click me](javascript:window.__xss=6)',
  'XSS07 [click me](JaVaScRiPt:alert(7))',
  'XSS08 [click me](java&#x09;script:alert(8))',
  'XSS09 <javascript:alert(9)>',
  'XSS10 [ref link][r10]\n\n[r10]: javascript:window.__xss=10',
  'XSS11 [data link](data:text/html;base64,PHNjcmlwdD53aW5kb3cuX194c3M9MTE8L3NjcmlwdD4=)',
  'XSS12 ![image](javascript:alert(12))',
  'XSS13 {{constructor.constructor("window.__xss=13")()}}',
  'XSS14 ${alert(14)} #{alert(14)}',
  'XSS15 $\\href{javascript:window.__xss=15}{math link}$',
  'XSS16 $\\url{javascript:alert(16)}$',
  'XSS17 $\\htmlClass{x}{class}$ $\\htmlId{y}{id}$',
  'XSS18 $\\htmlStyle{background:url(javascript:alert(18))}{style}$ $\\htmlData{onload=alert(18)}{data}$',
  'XSS19 $$\\includegraphics[height=1em]{javascript:alert(19)}$$',
  'XSS20 <iframe src="javascript:window.__xss=20"></iframe>',
  'XSS21 <iframe srcdoc="<script>parent.__xss=21</script>"></iframe>',
  'XSS22 <div style="width:expression(alert(22))">styled</div> <style>@import "javascript:alert(22)";</style>',
  'XSS23 <a href="javascript:window.__xss=23">anchor</a>',
  'XSS24 <a href="data:text/html,<script>alert(24)</script>">data anchor</a>',
  'XSS25 \u003cscript\u003ewindow.__xss=25\u003c/script\u003e',
  'XSS26 \\u003cimg src=x onerror=window.__xss=26\\u003e &#x3C;script&#x3E;alert(26)&#x3C;/script&#x3E;',
  'XSS27 <details open ontoggle="window.__xss=27">d</details> <input autofocus onfocus="window.__xss=27">',
  'XSS28 <object data="javascript:window.__xss=28"></object><embed src="javascript:window.__xss=28">',
  'XSS29 <math><mtext><table><mglyph><style><img src=x onerror=window.__xss=29>',
  'XSS30 </textarea></title><script>window.__xss=30</script>',
  'XSS31 <scr<script>ipt>window.__xss=31</scr</script>ipt>',
  'XSS32 [x](https://example.com" onmouseover="window.__xss=32)',
  'XSS33 <base href="javascript:/"><meta http-equiv="refresh" content="0;url=javascript:alert(33)">',
  'XSS34 <form action="javascript:window.__xss=34"><button>go</button></form>',
  'XSS35 [vb](vbscript:msgbox(35)) [enc](javascript%3Aalert(35))',
  'XSS36 <body onload=window.__xss=36> <video><source onerror="window.__xss=36"></video>',
];
const MARKERS = PAYLOADS.map((p) => p.slice(0, 5));
// Single-line payloads of at most 100 characters, for names (study and account names are plain text).
const NAME_PAYLOADS = PAYLOADS.filter((p) => !p.includes('\n') && p.length <= 100);

type Seeded = {
  flow: number;
  pair: number;
  studyNames: string[];
  accounts: Record<'member' | 'other' | 'adjudicator' | 'lead' | 'admin', { username: string; name: string }>;
};

/** A JSON line; `escaped` writes every < > & ' as a \\uXXXX escape, the way some exporters do (JSON has no such
 * character outside strings, so this changes only how the strings are spelled). */
function jsonLine(value: unknown, escaped = false) {
  const text = JSON.stringify(value);
  return escaped ? text.replace(/[<>&']/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`) : text;
}

function seed(): Seeded {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'concord-xss-'));
  const write = (name: string, content: string) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, content);
    return file;
  };
  const accounts = {
    member: { username: 'xssmember', name: NAME_PAYLOADS[1] },
    other: { username: 'xssother', name: NAME_PAYLOADS[2] },
    adjudicator: { username: 'xssadjudicator', name: NAME_PAYLOADS[3] },
    lead: { username: 'xsslead', name: NAME_PAYLOADS[4] },
    admin: { username: 'xssadmin', name: NAME_PAYLOADS[22] },
  };
  const roles = { member: 'annotator', other: 'annotator', adjudicator: 'annotator', lead: 'lead', admin: 'admin' } as const;
  for (const [k, a] of Object.entries(accounts))
    concord(['user', 'add', a.username, '--role', roles[k as keyof typeof roles], '--name', a.name], PASSWORD);

  const all = PAYLOADS.join('\n\n');
  const guidelines = write('guidelines.md', `# Guidelines\n\n${all}\n`);
  const flowItems = [
    {
      id: NAME_PAYLOADS[5],
      problem: { text: all, solution: all, answer: PAYLOADS[0] },
      materials: PAYLOADS.map((p, i) => ({ id: `M${i + 1}`, kind: 'follow_up', text: p, solution: p })),
      steps: PAYLOADS.map((p, i) => ({
        speaker: i % 2 ? 'student' : 'tutor',
        text: p,
        principles: ['Questioning'],
        materials: [`M${i + 1}`],
      })),
    },
    {
      id: 'xss-flow-2',
      problem: { text: all },
      materials: [
        { id: 'E1', kind: 'error_analysis', student_solution: all, feedback: all },
        { id: 'C1', kind: 'clarification', turns: PAYLOADS.map((p, i) => ({ role: i % 2 ? 'student' : 'tutor', text: p })) },
      ],
      steps: [
        { speaker: 'tutor', text: all },
        { speaker: 'student', text: all },
      ],
    },
  ];
  const studyNames = [NAME_PAYLOADS[6], NAME_PAYLOADS[7], NAME_PAYLOADS[8], NAME_PAYLOADS[9]];
  const flow = JSON.parse(
    concord(['study', 'create', '--kind', 'flow_review', '--name', studyNames[0], '--guidelines', guidelines, '--json']),
  ).id as number;
  concord(['import', 'items', '--study', String(flow), write('flows.jsonl', flowItems.map((f, i) => jsonLine(f, i === 1)).join('\n'))]);
  concord(['study', 'members', String(flow), accounts.member.username, accounts.other.username]);
  concord(['study', 'open', String(flow)]);

  const criteria = PAYLOADS.map((p, i) => ({
    id: `c${String(i + 1).padStart(2, '0')}`,
    name: p,
    level: 'general',
    description: p,
    aspects: [p],
  }));
  const catalog = write('criteria.json', JSON.stringify(criteria));
  const pairs = [1, 2].map((n) => ({
    id: n === 1 ? NAME_PAYLOADS[10] : `xss-pair-${n}`,
    problem: all,
    instructions: all,
    history: PAYLOADS.map((p, i) => ({ role: i % 2 ? 'student' : 'tutor', text: p })),
    a: { source: 'xss-source-a', text: all },
    b: { source: 'xss-source-b', text: all },
  }));
  const pair = JSON.parse(
    concord([
      'study',
      'create',
      '--kind',
      'pairwise',
      '--name',
      studyNames[1],
      '--guidelines',
      guidelines,
      '--criteria',
      catalog,
      '--json',
    ]),
  ).id as number;
  const pairFile = write('pairs.jsonl', pairs.map((p, i) => jsonLine(p, i === 1)).join('\n'));
  concord(['import', 'items', '--study', String(pair), pairFile]);
  const judge = pairs.map((p) => ({ item: p.id, judge: 'xss-judge', labels: { overall: 'win', c01: 'lose' }, rationale: all }));
  concord([
    'import',
    'judge',
    '--study',
    String(pair),
    '--judge',
    'xss-judge',
    write('judge.jsonl', judge.map((j) => JSON.stringify(j)).join('\n')),
  ]);
  concord([
    'study',
    'members',
    String(pair),
    accounts.member.username,
    accounts.other.username,
    '--adjudicator',
    accounts.adjudicator.username,
  ]);
  concord(['study', 'open', String(pair)]);
  // Draft studies whose only payload is their name, for the lists.
  for (const name of studyNames.slice(2)) concord(['study', 'create', '--kind', 'pairwise', '--name', name, '--json']);
  fs.rmSync(dir, { recursive: true, force: true });
  return { flow, pair, studyNames, accounts };
}

/** What a page did that it must not: dialogs opened, and the page-side state read after it settled. */
function watch(page: Page) {
  const dialogs: string[] = [];
  page.on('dialog', async (d) => {
    dialogs.push(`${d.type()}: ${d.message()}`);
    await d.dismiss().catch(() => undefined);
  });
  return dialogs;
}

type Findings = { xss: unknown; badLinks: string[]; badElements: string[]; handlers: string[]; text: string };

async function inspect(page: Page): Promise<Findings> {
  return page.evaluate(() => {
    const w = window as unknown as { __xss?: unknown };
    const attrs = (names: string[]) =>
      [...document.querySelectorAll('*')].flatMap((el) => names.map((a) => el.getAttribute(a)).filter((v): v is string => v !== null));
    // Links and sources: no javascript:, data: or vbscript: URL at all (after the control characters a browser strips).
    const badLinks = attrs(['href', 'src', 'xlink:href', 'srcdoc'])
      .filter((v) => /^\s*(javascript|data|vbscript):/i.test(v.replace(/[\u0000-\u001f]/g, '')))
      // React itself renders form actions as javascript:throw…; only a payload's action is a finding.
      .concat(attrs(['action', 'formaction']).filter((v) => /__xss|alert\(/.test(v)));
    // Elements no payload may plant (the app renders none of these); inline scripts only when they are a payload's
    // (Next's own inline scripts carry the page data, payload strings included, as JSON).
    const badElements = [...document.querySelectorAll('iframe, object, embed, base, meta[http-equiv], script:not([src])')]
      .filter((el) => el.tagName !== 'SCRIPT' || /^\s*((window|parent)\.__xss|alert\()/.test(el.textContent ?? ''))
      .map((el) => el.outerHTML.slice(0, 120));
    const handlers = [...document.querySelectorAll('*')].flatMap((el) =>
      [...el.attributes]
        .filter((a) => /^on/i.test(a.name) || (a.name === 'style' && /expression\(|javascript:/i.test(a.value)))
        .map((a) => `${el.tagName} ${a.name}=${a.value.slice(0, 60)}`),
    );
    return { xss: w.__xss, badLinks, badElements, handlers, text: document.body.innerText };
  });
}

test.describe.configure({ mode: 'serial' });

let seeded: Seeded;
test.beforeAll(() => {
  seeded = seed();
});

/**
 * The flow review screen has fetched and drawn its flow. The flow arrives by a request the page makes after it has
 * hydrated, which on a busy machine can start after the network has been idle for a while (its scripts not yet cached
 * when the review screen is the first page the context opens).
 */
const flowShown = async (page: Page) => {
  await expect(page.getByTestId('flow-id')).toBeVisible();
};

/** Visits each URL as `username`: no payload ran or left a link, and the expected text is shown. */
async function visit(
  browser: Browser,
  username: string,
  pages: { url: string; visible: string[]; settle?: (page: Page) => Promise<void> }[],
) {
  const { context, page } = await asUser(browser, username, PASSWORD);
  const dialogs = watch(page);
  const problems: string[] = [];
  let checks = 0;
  try {
    for (const p of pages) {
      await test.step(`${username} ${p.url}`, async () => {
        const res = await page.goto(p.url);
        expect(res?.status(), `${username} ${p.url}`).toBe(200);
        await page.waitForLoadState('networkidle');
        if (p.settle) await p.settle(page);
        // Let onerror/onload/autofocus handlers fire if anything was planted: every image settled (loaded or
        // broken), then two frames painted and one more task run, by which time their events have been dispatched.
        await page.waitForFunction(() => Array.from(document.images).every((img) => img.complete));
        await page.evaluate(
          () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(resolve, 0)))),
        );
        const f = await inspect(page);
        if (f.xss !== undefined) problems.push(`${p.url}: window.__xss = ${String(f.xss)}`);
        for (const l of f.badLinks) problems.push(`${p.url}: link to ${l}`);
        for (const e of f.badElements) problems.push(`${p.url}: element ${e}`);
        for (const h of f.handlers) problems.push(`${p.url}: attribute ${h}`);
        for (const v of p.visible) {
          checks++;
          if (!f.text.includes(v)) problems.push(`${p.url}: "${v.slice(0, 60)}" is not shown as text`);
        }
      });
    }
  } finally {
    await context.close();
  }
  expect(dialogs, `${username}: dialogs opened`).toEqual([]);
  expect(problems, problems.join('\n')).toEqual([]);
  return checks;
}

test('an annotator sees every payload as text on the review and judging screens, and none runs', async ({ browser }) => {
  test.setTimeout(180_000);
  const { flow, pair, studyNames, accounts } = seeded;
  const checks = await visit(browser, accounts.member.username, [
    // Home: the study names and the reviewer's own display name (plain text, shown whole).
    { url: '/', visible: [studyNames[0], studyNames[1], accounts.member.name] },
    // Flow review: guidelines, problem, solution, materials and steps all carry every payload.
    { url: `/studies/${flow}/review`, visible: [...MARKERS, accounts.member.name], settle: flowShown },
    // Judging: guidelines, problem, instructions, history, both replies, criteria names and descriptions.
    { url: `/studies/${pair}/review`, visible: [...MARKERS, ...NAME_PAYLOADS.slice(0, 12)] },
  ]);
  expect(checks).toBeGreaterThan(70);
});

test('the other flow (materials: error analysis and clarification turns) shows the payloads as text', async ({ browser }) => {
  test.setTimeout(120_000);
  const { flow, accounts } = seeded;
  // The second reviewer of the flow study got the other flow (one reviewer per flow, balanced).
  await visit(browser, accounts.other.username, [{ url: `/studies/${flow}/review`, visible: MARKERS, settle: flowShown }]);
});

test('the adjudicator sees the disputed item with every payload as text, and none runs', async ({ browser }) => {
  test.setTimeout(180_000);
  const { pair, accounts } = seeded;
  // Both reviewers judge both items through the JSON route: one ties everything, the other prefers Response 1.
  for (const [who, choice] of [
    [accounts.member.username, 'tie'],
    [accounts.other.username, 'r1'],
  ] as const) {
    const { context, page } = await asUser(browser, who, PASSWORD);
    const queue = await (await page.request.get(`/api/studies/${pair}/queue`)).json();
    for (const [i, id] of [queue.currentId, queue.nextId].entries()) {
      const view = await (await page.request.get(`/api/assignments/${id}`)).json();
      const choices = Object.fromEntries((view.criteria as { id: string }[]).map((c) => [c.id, choice]));
      const res = await page.request.post(`/api/assignments/${id}/submission`, {
        data: { requestId: `xss-${who}-${i}`, activeMs: 1000, choices },
      });
      expect(res.status(), await res.text()).toBe(200);
    }
    await context.close();
  }
  await visit(browser, accounts.adjudicator.username, [
    { url: '/', visible: [seeded.studyNames[1], accounts.adjudicator.name] },
    { url: `/studies/${pair}/adjudicate`, visible: [...MARKERS, ...NAME_PAYLOADS.slice(0, 12)] },
  ]);
});

test('the lead sees study names, item ids, criteria, names and reports as text on every staff page', async ({ browser }) => {
  test.setTimeout(240_000);
  const { flow, pair, studyNames, accounts } = seeded;
  const analytics = ['agreement', 'alignment', 'leaderboard', 'hybrid'].map((d) => ({
    url: `/studies/${pair}/analytics/${d}`,
    visible: [studyNames[1]],
  }));
  await visit(browser, accounts.lead.username, [
    { url: '/', visible: [accounts.lead.name] },
    { url: '/studies', visible: studyNames },
    { url: `/studies/${flow}`, visible: [studyNames[0], accounts.member.name, accounts.other.name] },
    { url: `/studies/${flow}/items`, visible: [NAME_PAYLOADS[5]] },
    { url: `/studies/${pair}`, visible: [studyNames[1], accounts.member.name, accounts.adjudicator.name, NAME_PAYLOADS[12]] },
    { url: `/studies/${pair}/items`, visible: [NAME_PAYLOADS[10]] },
    ...analytics,
  ]);
});

test('the admin sees every account name as text on the accounts page', async ({ browser }) => {
  const { accounts } = seeded;
  await visit(browser, accounts.admin.username, [{ url: '/admin/users', visible: Object.values(accounts).map((a) => a.name) }]);
});

test('the payload list is what the report claims', () => {
  expect(PAYLOADS.length).toBeGreaterThanOrEqual(30);
  expect(new Set(MARKERS).size).toBe(PAYLOADS.length);
  expect(NAME_PAYLOADS.length).toBeGreaterThanOrEqual(23);
});
