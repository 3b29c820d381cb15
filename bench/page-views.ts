/**
 * What a lead's page views cost the server, with links prefetching on intent (components/ui/link.tsx) and, for
 * comparison, with every internal link on screen prefetched as Next's <Link> does by default (simulated by moving
 * the pointer onto each one after the page has loaded, which makes the same link ask the router for its page).
 * Run: npx tsx --conditions=react-server bench/page-views.ts        (needs `npx next build` first)
 *
 * The demo database (`concord seed`), `next start` on port 3403, Chromium signed in as the demo's lead. Each round
 * opens the studies list, two studies and their items lists (five pages) five times: 25 page views, each waited
 * until the network is idle. Measured: the server's CPU time (/proc, the `next start` process group), the prefetch
 * requests the page sent, and the wall time. Floor: the same 25 pages fetched as plain documents (no browser, no
 * script, no prefetch): what rendering them alone costs the server.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { chromium, type Page } from '@playwright/test';
import { signInOverHttp } from '@/e2e/support/server';
import { conditions, withOwnServer } from './own-server';

const PORT = 3403;
const ROUNDS = Number(process.env.ROUNDS ?? 2);
const PAGES = ['/studies', '/studies/1', '/studies/1/items', '/studies/2', '/studies/2/items'];
const CHROMIUM = process.env.CHROMIUM_PATH ?? ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((f) => fs.existsSync(f));

/**
 * CPU seconds used so far by the processes of group `pgid` (the server and what it started), with those of their
 * children that have ended (cutime, cstime).
 */
function groupCpu(pgid: number): number {
  const pids = execFileSync('ps', ['-o', 'pid=', '-g', String(pgid)], { encoding: 'utf8' })
    .trim()
    .split(/\s+/);
  let ticks = 0;
  for (const pid of pids) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]);
    } catch {
      // ended meanwhile
    }
  }
  return ticks / 100; // USER_HZ
}

/** Moves the pointer onto every internal link on screen, as Next's default prefetch-on-sight would ask for them. */
async function reachEveryLink(page: Page) {
  const links = page.locator('a[href^="/"]');
  for (let i = 0, n = await links.count(); i < n; i++) {
    const link = links.nth(i);
    if (await link.isVisible()) await link.hover({ timeout: 2_000 }).catch(() => {});
  }
}

async function main() {
  await withOwnServer('page-views', PORT, async ({ db, server }) => {
    execFileSync(process.execPath, ['lib/cli/bin.mjs', 'seed'], { env: { ...process.env, CONCORD_DB: db }, stdio: 'ignore' });
    await server.start();
    const pgid = server.proc!.child.pid!;
    const session = await signInOverHttp(server.baseURL, 'lead', 'concord-demo');
    const cookies = (await session.storageState()).cookies;
    const cookieHeader = cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--disable-gpu'],
    });
    console.log(`Concord page-views benchmark — ${conditions()}; Chromium ${CHROMIUM}`);
    console.log(`${PAGES.length * 5} page views as the demo's lead: ${PAGES.join(', ')}, five times; ${ROUNDS} rounds of each mode`);
    try {
      const views = async (onSight: boolean) => {
        const context = await browser.newContext({ baseURL: server.baseURL });
        await context.addCookies(cookies);
        const page = await context.newPage();
        let prefetches = 0;
        page.on('request', (r) => {
          if (r.headers()['next-router-prefetch']) prefetches++;
        });
        await page.goto('/studies');
        await page.waitForLoadState('networkidle');
        prefetches = 0;
        const cpu0 = groupCpu(pgid);
        const t0 = Date.now();
        for (let i = 0; i < 5; i++) {
          for (const url of PAGES) {
            await page.goto(url);
            await page.waitForLoadState('networkidle');
            if (onSight) {
              await reachEveryLink(page);
              await page.waitForLoadState('networkidle');
            }
          }
        }
        const result = { cpu: groupCpu(pgid) - cpu0, ms: Date.now() - t0, prefetches };
        await context.close();
        return result;
      };
      const floor = async () => {
        const cpu0 = groupCpu(pgid);
        for (let i = 0; i < 5; i++) {
          for (const url of PAGES) {
            const res = await fetch(`${server.baseURL}${url}`, { headers: { cookie: cookieHeader } });
            if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
            await res.text();
          }
        }
        return groupCpu(pgid) - cpu0;
      };
      for (let round = 1; round <= ROUNDS; round++) {
        for (const onSight of [false, true]) {
          const r = await views(onSight);
          console.log(
            `round ${round}, ${onSight ? "every link on screen prefetched (Next's default)" : 'prefetch on intent (as shipped)     '}: ` +
              `server CPU ${r.cpu.toFixed(2)} s, ${r.prefetches} prefetches, ${(r.ms / 1000).toFixed(1)} s`,
          );
        }
        console.log(`round ${round}, floor (the 25 documents alone, no browser): server CPU ${(await floor()).toFixed(2)} s`);
      }
      console.log(`load average at the end: ${conditions()}`);
    } finally {
      await browser.close();
      await session.dispose();
    }
  });
}

main().then(
  () => process.stdout.write('', () => process.exit(0)),
  (e) => {
    console.error(e);
    process.stdout.write('', () => process.exit(1));
  },
);
