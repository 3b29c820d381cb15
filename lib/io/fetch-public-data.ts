import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { Manifest, ManifestDataset, ManifestFile } from './public-data-manifest';

/**
 * Downloads the public datasets of a manifest into a folder, file by file, keeping a file only when its SHA-256
 * matches the manifest. Bytes go to a temporary name beside the final one and are renamed into place once checked,
 * so the final name holds either the pinned bytes or nothing new. A body cut short is resumed with a Range request
 * when the server honours it, restarted otherwise, a few times with backoff.
 */

export type FetchOptions = {
  manifest: Manifest;
  /** The data folder; created if needed. */
  dir: string;
  /** Base URL serving the same relative paths (`<mirror>/<path>`) instead of each file's upstream URL. */
  mirror?: string;
  /** Dataset names to fetch; all when absent. Unknown names throw (see selectDatasets). */
  only?: string[];
  /** Leave files that exist alone without reading them (a quick start); only absent files are fetched. */
  ifMissing?: boolean;
  /** Tries per file, the first included. */
  attempts?: number;
  /** Wait before the second try; doubled for each further one. */
  backoffMs?: number;
  /** A response that sends nothing for this long is dropped and retried. */
  idleTimeoutMs?: number;
  progress?: FetchProgress;
};

export type FailureReason = 'checksum' | 'http' | 'interrupted' | 'unreachable' | 'io';

export type FileOutcome =
  | { path: string; status: 'up-to-date' | 'present' }
  | { path: string; status: 'downloaded'; bytes: number; tries: number }
  | { path: string; status: 'failed'; reason: FailureReason; message: string; host?: string }
  | { path: string; status: 'skipped'; message: string; host: string };

export type FetchReport = {
  dir: string;
  files: FileOutcome[];
  failed: FileOutcome[];
  /** Hosts that never answered: the files asked of them failed or were skipped. */
  unreachable: string[];
  /** What happened to the folder's README.md (the attribution of what it holds). */
  readme: 'written' | 'unchanged' | 'kept-foreign' | 'not-written';
};

/** What the caller sees while files arrive; every method is optional. */
export type FetchProgress = {
  start?(file: ManifestFile): void;
  bytes?(file: ManifestFile, received: number): void;
  retry?(file: ManifestFile, message: string): void;
  done?(file: ManifestFile, outcome: FileOutcome): void;
};

export class UnknownDatasetError extends Error {
  constructor(
    readonly unknown: string[],
    readonly known: string[],
  ) {
    super(`unknown dataset${unknown.length > 1 ? 's' : ''} ${unknown.map((n) => `"${n}"`).join(', ')}; known: ${known.join(', ')}`);
    this.name = 'UnknownDatasetError';
  }
}

/** The datasets `only` names, in manifest order; all of them without `only`. */
export function selectDatasets(manifest: Manifest, only?: string[]): ManifestDataset[] {
  if (!only?.length) return manifest.datasets;
  const known = manifest.datasets.map((d) => d.name);
  const unknown = only.filter((n) => !known.includes(n));
  if (unknown.length) throw new UnknownDatasetError(unknown, known);
  return manifest.datasets.filter((d) => only.includes(d.name));
}

export async function sha256File(file: string): Promise<string> {
  const hash = crypto.createHash('sha256');
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** The final path of a manifest file inside `dir`, refusing paths that would leave it. */
export function targetPath(dir: string, relative: string): string {
  const full = path.resolve(dir, ...relative.split('/'));
  const root = path.resolve(dir);
  if (full !== root && !full.startsWith(root + path.sep)) throw new Error(`${relative}: path leaves the data folder`);
  return full;
}

export function sourceUrl(file: ManifestFile, mirror?: string): string {
  if (!mirror) return file.url;
  return `${mirror.replace(/\/+$/, '')}/${file.path.split('/').map(encodeURIComponent).join('/')}`;
}

const TEMP = /^\..+\.[0-9a-f]{8}\.part$/;

export async function fetchPublicData(options: FetchOptions): Promise<FetchReport> {
  const datasets = selectDatasets(options.manifest, options.only);
  const dir = path.resolve(options.dir);
  const files: FileOutcome[] = [];
  const unreachable = new Set<string>();
  const cleaned = new Set<string>();

  for (const dataset of datasets) {
    for (const file of dataset.files) {
      const final = targetPath(dir, file.path);
      const url = sourceUrl(file, options.mirror);
      const host = hostOf(url);
      options.progress?.start?.(file);
      let outcome: FileOutcome;
      if (unreachable.has(host)) {
        outcome = { path: file.path, status: 'skipped', host, message: `${file.path}: skipped, ${host} could not be reached` };
      } else {
        const folder = path.dirname(final);
        if (!cleaned.has(folder)) {
          await removeStaleTemps(folder);
          cleaned.add(folder);
        }
        outcome = await fetchOne(file, final, url, options);
        if (outcome.status === 'failed' && outcome.reason === 'unreachable') unreachable.add(host);
      }
      files.push(outcome);
      options.progress?.done?.(file, outcome);
    }
  }

  const failedHere = new Set(files.filter((f) => f.status === 'failed' || f.status === 'skipped').map((f) => f.path));
  const readme = await writeAttribution(dir, options.manifest, (f) => !failedHere.has(f.path) && fs.existsSync(targetPath(dir, f.path)));
  return {
    dir,
    files,
    failed: files.filter((f) => f.status === 'failed' || f.status === 'skipped'),
    unreachable: [...unreachable],
    readme,
  };
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/**
 * Temporary files a killed run left behind; they never carry a final name, so they are only clutter. Those written
 * to in the last few minutes may belong to a run still going in the same folder, and are left to it.
 */
async function removeStaleTemps(folder: string) {
  let names: string[];
  try {
    names = await fsp.readdir(folder);
  } catch {
    return;
  }
  for (const name of names) {
    if (!TEMP.test(name)) continue;
    const file = path.join(folder, name);
    const stat = await fsp.stat(file).catch(() => null);
    if (stat && Date.now() - stat.mtimeMs > STALE_TEMP_MS) await fsp.rm(file, { force: true });
  }
}

const STALE_TEMP_MS = 5 * 60_000;

class DiskError extends Error {
  constructor(readonly cause: Error) {
    super(cause.message);
  }
}

async function fetchOne(file: ManifestFile, final: string, url: string, options: FetchOptions): Promise<FileOutcome> {
  if (fs.existsSync(final)) {
    if (options.ifMissing) return { path: file.path, status: 'present' };
    if ((await fsp.stat(final)).size === file.bytes && (await sha256File(final)) === file.sha256)
      return { path: file.path, status: 'up-to-date' };
  }
  const temp = path.join(path.dirname(final), `.${path.basename(final)}.${crypto.randomBytes(4).toString('hex')}.part`);
  try {
    await fsp.mkdir(path.dirname(final), { recursive: true });
    const result = await download(file, url, temp, options);
    if (result.status !== 'complete') return result.outcome;
    await fsp.rename(temp, final);
    return { path: file.path, status: 'downloaded', bytes: file.bytes, tries: result.tries };
  } catch (e) {
    return {
      path: file.path,
      status: 'failed',
      reason: 'io',
      message: `${file.path}: ${(e as Error).message}; nothing written for this file`,
    };
  } finally {
    await fsp.rm(temp, { force: true }).catch(() => {});
  }
}

type DownloadResult = { status: 'complete'; tries: number } | { status: 'failed'; outcome: FileOutcome };

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'ENETDOWN',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** The most telling message of a fetch error (undici hides the system error in `cause`). */
function describe(e: unknown): { message: string; code?: string } {
  const err = e as Error & { cause?: Error & { code?: string; errors?: (Error & { code?: string })[] }; code?: string };
  // A host with several addresses fails with an AggregateError of one error per address.
  const cause = err.cause?.code ? err.cause : (err.cause?.errors?.find((x) => x.code) ?? err.cause);
  if (cause?.code)
    return { message: `${cause.code}${cause.message && !cause.message.includes(cause.code) ? ` ${cause.message}` : ''}`, code: cause.code };
  if (err.name === 'AbortError' || err.name === 'TimeoutError') return { message: 'no data received in time' };
  return { message: cause?.message ?? err.message, code: err.code };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Fetches `url` into `temp`, checking size and SHA-256 as bytes arrive. Bytes already received survive a cut
 * connection: the next try asks for the rest with a Range header and appends when the server answers 206 from the
 * right offset, and starts over on a plain 200.
 */
async function download(file: ManifestFile, url: string, temp: string, options: FetchOptions): Promise<DownloadResult> {
  const attempts = Math.max(1, options.attempts ?? 4);
  const backoff = options.backoffMs ?? 500;
  const idle = options.idleTimeoutMs ?? 30_000;
  const fail = (reason: FailureReason, message: string, host?: string): DownloadResult => ({
    status: 'failed',
    outcome: { path: file.path, status: 'failed', reason, message: `${file.path}: ${message}; nothing written for this file`, host },
  });

  let hash = crypto.createHash('sha256');
  let received = 0;
  let answered = false;
  let last = '';
  let lastCode: string | undefined;

  for (let attempt = 1; attempt <= attempts; attempt++) {
    // A host that refused or could not be resolved twice is taken as unreachable: more tries only delay the report.
    if (attempt > 2 && !answered && lastCode && NETWORK_CODES.has(lastCode)) break;
    if (attempt > 1) {
      options.progress?.retry?.(
        file,
        `${file.path}: ${last} after ${received.toLocaleString('en-US')} of ${file.bytes.toLocaleString('en-US')} bytes; ` +
          `${received > 0 ? 'resuming' : 'retrying'} (try ${attempt} of ${attempts})`,
      );
      await sleep(backoff * 2 ** (attempt - 2));
    }
    const controller = new AbortController();
    let timer = setTimeout(() => controller.abort(), idle);
    const poke = () => {
      clearTimeout(timer);
      timer = setTimeout(() => controller.abort(), idle);
    };
    try {
      let response: Response;
      try {
        response = await fetch(url, {
          headers: received > 0 ? { Range: `bytes=${received}-` } : {},
          signal: controller.signal,
          redirect: 'follow',
        });
      } catch (e) {
        ({ message: last, code: lastCode } = describe(e));
        continue;
      }
      answered = true;
      let append = false;
      if (received > 0 && response.status === 206 && rangeStart(response) === received) append = true;
      else if (response.status !== 200) {
        await response.body?.cancel().catch(() => {});
        last = `HTTP ${response.status}`;
        lastCode = undefined;
        // A server error or a refused range may pass; anything else (404, 403, …) will not.
        if (response.status >= 500 || response.status === 429 || response.status === 416 || response.status === 206) {
          if (response.status === 416 || response.status === 206) {
            hash = crypto.createHash('sha256');
            received = 0;
          }
          continue;
        }
        return fail('http', `HTTP ${response.status} from ${url}`);
      }
      if (!append) {
        hash = crypto.createHash('sha256');
        received = 0;
      }
      if (!response.body) return fail('http', `empty response from ${url}`);

      const handle = await fsp.open(temp, append ? 'a' : 'w');
      let oversize = false;
      try {
        for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
          poke();
          if (received + chunk.byteLength > file.bytes) {
            oversize = true;
            controller.abort();
            break;
          }
          // A disk error is not the network's: it fails the file at once instead of being retried.
          await handle.write(chunk).catch((e: Error) => {
            throw new DiskError(e);
          });
          hash.update(chunk);
          received += chunk.byteLength;
          options.progress?.bytes?.(file, received);
        }
      } catch (e) {
        if (e instanceof DiskError) throw e.cause;
        const why = describe(e);
        last = why.code === 'UND_ERR_SOCKET' || why.message === 'terminated' ? 'connection closed mid-body' : why.message;
        lastCode = why.code;
        continue;
      } finally {
        await handle.close();
      }
      if (oversize) return fail('checksum', `checksum mismatch (expected ${file.sha256}, got a body larger than ${file.bytes} bytes)`);
      const got = hash.digest('hex');
      if (got !== file.sha256) return fail('checksum', `checksum mismatch (expected ${file.sha256}, got ${got})`);
      return { status: 'complete', tries: attempt };
    } finally {
      clearTimeout(timer);
    }
  }
  if (!answered && lastCode && NETWORK_CODES.has(lastCode)) {
    const host = hostOf(url);
    return fail('unreachable', `could not reach ${host} (${last})`, host);
  }
  return fail('interrupted', `download failed after ${attempts} tries (${last})`);
}

/** The first byte offset of a 206 response, from `Content-Range: bytes START-END/TOTAL`. */
function rangeStart(response: Response): number | undefined {
  const m = /^bytes (\d+)-\d+\/(\d+|\*)$/.exec(response.headers.get('content-range') ?? '');
  return m ? Number(m[1]) : undefined;
}

const README_MARK = '<!-- written by `npx concord data fetch`; it rewrites this file -->';

/** The attribution README of a data folder: every dataset of the manifest found complete in it. */
export function attributionReadme(manifest: Manifest, present: (file: ManifestFile) => boolean): string | null {
  const complete = manifest.datasets.filter((d) => d.files.every(present));
  if (!complete.length) return null;
  const licences = complete.flatMap((d) => d.files.map((f) => f.path).filter((p) => /(^|\/)LICEN[CS]E(\.[a-z]+)?$/i.test(p)));
  const lines = [
    README_MARK,
    '# Public tutoring and judging data',
    '',
    "Published datasets fetched for Concord from their authors' repositories, each at a pinned commit, byte for byte:",
    "every file below was checked against its SHA-256. None of it was written by Concord. Keep each dataset's",
    'attribution and licence when you share it or anything derived from it; CC BY-SA data stays CC BY-SA.',
    '',
    '| folder | what | source (repository @ commit) | licence | cite |',
    '|---|---|---|---|---|',
    ...complete.map(
      (d) => `| \`${d.name}/\` | ${d.title} | [${d.repo}](https://github.com/${d.repo}) @ \`${d.commit}\` | ${d.licence} | ${d.cite} |`,
    ),
    '',
    ...(licences.length
      ? [
          `Where the upstream repository has a LICENSE file, it is copied beside its data (${licences.map((p) => `\`${p}\``).join(', ')}).`,
          '',
        ]
      : []),
    '## Files',
    '',
    '| file | bytes | SHA-256 |',
    '|---|---:|---|',
    ...complete.flatMap((d) => d.files.map((f) => `| \`${f.path}\` | ${f.bytes} | \`${f.sha256}\` |`)),
    '',
  ];
  return lines.join('\n');
}

async function writeAttribution(dir: string, manifest: Manifest, present: (file: ManifestFile) => boolean): Promise<FetchReport['readme']> {
  const file = path.join(dir, 'README.md');
  const text = attributionReadme(manifest, present);
  if (text === null) return 'not-written';
  let current: string | null = null;
  try {
    current = await fsp.readFile(file, 'utf8');
  } catch {
    // absent: written below
  }
  if (current !== null && !current.startsWith(README_MARK)) return 'kept-foreign';
  if (current === text) return 'unchanged';
  const temp = path.join(dir, `.README.md.${crypto.randomBytes(4).toString('hex')}.part`);
  try {
    await fsp.writeFile(temp, text);
    await fsp.rename(temp, file);
  } catch {
    await fsp.rm(temp, { force: true });
    return 'not-written';
  }
  return 'written';
}
