import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { PAIRWISE_CRITERION_TEMPLATE } from '../lib/validation/judge-templates';
import { concord } from './support/cli';
import { signInContext } from './support/session';

// Issue 26, point 4 (the rest), at 1440×900: a judge run that got no verdicts (every request failed) sorted first by
// name, crowded the judge selector and became the alignment page's default. The dashboards open on the newest run
// with verdicts and list the empty ones last, marked.

const PAIRS = path.join(process.cwd(), 'lib', 'server', 'demo', 'seed-data', 'kmp-style', 'pairwise.jsonl');
// Nothing listens on this port (this spec's range, 3910–3919): every request of the dead run fails.
const NOWHERE = 'http://127.0.0.1:3919/v1';
let study = 0;

test.beforeAll(() => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'concord-ux-runs-'));
  try {
    study = JSON.parse(
      concord(['study', 'create', '--kind', 'pairwise', '--name', 'UX judge runs', '--criteria', 'none', '--reviewers', '1', '--json']),
    ).id;
    concord(['import', 'items', '--study', String(study), PAIRS]);
    const ids = fs
      .readFileSync(PAIRS, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).id as string);
    const verdicts = path.join(dir, 'judge.jsonl');
    fs.writeFileSync(verdicts, ids.map((item) => JSON.stringify({ item, judge: 'b-verdicts', labels: { overall: 'win' } })).join('\n'));
    concord(['import', 'judge', '--study', String(study), '--judge', 'b-verdicts', verdicts]);
    // Made after b-verdicts and sorted before it by name: the run the old page opened on.
    const prompt = path.join(dir, 'prompt.json');
    fs.writeFileSync(prompt, JSON.stringify(PAIRWISE_CRITERION_TEMPLATE));
    expect(() =>
      concord([
        'judge',
        'run',
        '--study',
        String(study),
        '--name',
        'a-dead',
        '--endpoint',
        NOWHERE,
        '--model',
        'x',
        '--prompt',
        prompt,
        '--max-attempts',
        '1',
      ]),
    ).toThrow(/failed/);
    expect(concord(['judge', 'runs', '--study', String(study)])).toContain('a-dead: 0 verdicts');
    concord(['study', 'members', String(study), 'ann1']);
    concord(['study', 'open', String(study)]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

test('the alignment and hybrid dashboards open on the run with verdicts and list the empty run last, marked', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signInContext(page.context(), 'lead');
  for (const dashboard of ['alignment', 'hybrid']) {
    await page.goto(`/studies/${study}/analytics/${dashboard}`);
    const select = page.getByTestId('judge-select');
    await expect(select).toHaveValue('b-verdicts');
    await expect(select.locator('option')).toHaveText(['b-verdicts — 3 verdicts', 'a-dead — no verdicts']);
  }
  await expect(page.getByText('b-verdicts against the ground truth')).toHaveCount(0); // hybrid has no such title
  await page.goto(`/studies/${study}/analytics/alignment`);
  await expect(page.getByText('b-verdicts against the ground truth')).toBeVisible();
  // Asked for by name, the empty run is still shown.
  await page.goto(`/studies/${study}/analytics/alignment?judge=a-dead`);
  await expect(page.getByTestId('judge-select')).toHaveValue('a-dead');
});
