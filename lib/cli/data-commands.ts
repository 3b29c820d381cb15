import path from 'node:path';
import { fetchPublicData, selectDatasets, UnknownDatasetError, type FetchProgress, type FileOutcome } from '@/lib/io/fetch-public-data';
import { publicDataDir } from '@/lib/io/public-data';
import { PUBLIC_DATA_MANIFEST } from '@/lib/io/public-data-manifest';
import type { ManifestFile } from '@/lib/io/public-data-manifest';
import { invalid } from '@/lib/server/errors';
import type { Command } from './commands';

const n = (x: number) => x.toLocaleString('en-US');

function mb(bytes: number) {
  return `${(bytes / 1e6).toFixed(1)} MB`;
}

/**
 * Per-file progress on stderr: a redrawn line with a bar on a terminal, one line per finished file otherwise
 * (a log or a pipe gets no carriage returns).
 */
export function stderrProgress(stream: NodeJS.WriteStream = process.stderr): FetchProgress {
  const tty = !!stream.isTTY;
  let drawn = false;
  let lastDraw = 0;
  const clear = () => {
    if (drawn) stream.write('\r\x1b[2K');
    drawn = false;
  };
  const draw = (file: ManifestFile, received: number) => {
    const width = 24;
    const filled = Math.min(width, Math.round((received / Math.max(1, file.bytes)) * width));
    stream.write(`\r\x1b[2K${file.path}  [${'#'.repeat(filled)}${'-'.repeat(width - filled)}]  ${mb(received)} / ${mb(file.bytes)}`);
    drawn = true;
    lastDraw = Date.now();
  };
  const line = (text: string) => {
    clear();
    stream.write(`${text}\n`);
  };
  return {
    start(file) {
      if (tty) draw(file, 0);
    },
    bytes(file, received) {
      if (tty && Date.now() - lastDraw > 100) draw(file, received);
    },
    retry(_file, message) {
      line(message);
    },
    done(file, outcome) {
      // With --if-missing, files left unread are counted in the summary rather than listed one by one.
      if (outcome.status === 'present') clear();
      else line(describeOutcome(file, outcome));
    },
  };
}

function describeOutcome(file: ManifestFile, outcome: FileOutcome): string {
  switch (outcome.status) {
    case 'downloaded':
      return `${file.path}  ${n(outcome.bytes)}/${n(file.bytes)} bytes  downloaded${outcome.tries > 1 ? ` (${outcome.tries} tries)` : ''}`;
    case 'up-to-date':
      return `${file.path}: up to date`;
    case 'present':
      return `${file.path}: present, not checked (--if-missing)`;
    default:
      return outcome.message;
  }
}

/** `--only a b`, `--only a --only b` and `--only a,b` all name datasets a and b. */
function onlyNames(values: unknown, positionals: string[]): string[] | undefined {
  const given = Array.isArray(values) ? (values as string[]) : typeof values === 'string' ? [values] : [];
  if (!given.length) {
    if (positionals.length) throw invalid(`unexpected argument "${positionals[0]}" (did you mean --only ${positionals.join(' ')}?)`);
    return undefined;
  }
  return [...given, ...positionals]
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);
}

export const DATA_COMMANDS: Command[] = [
  {
    name: 'data fetch',
    usage: 'data fetch [--mirror URL] [--only NAME…] [--dir DIR] [--if-missing] [--quiet-offline]',
    summary:
      'Downloads the public datasets (MathDial, Bridge, PandaLM, MRBench, AITutor-EvalKit, MathTutorBench) at their pinned commits into CONCORD_PUBLIC_DATA, keeping only files whose SHA-256 matches.',
    db: false,
    options: {
      mirror: { type: 'string' },
      only: { type: 'string', multiple: true },
      dir: { type: 'string' },
      'if-missing': { type: 'boolean' },
      'quiet-offline': { type: 'boolean' },
    },
    async run(v, positionals) {
      const only = onlyNames(v.only, positionals);
      try {
        selectDatasets(PUBLIC_DATA_MANIFEST, only);
      } catch (e) {
        if (e instanceof UnknownDatasetError) throw invalid(e.message);
        throw e;
      }
      const mirror = typeof v.mirror === 'string' ? v.mirror : undefined;
      if (mirror && !/^https?:\/\//.test(mirror)) throw invalid(`--mirror must be an http:// or https:// URL, got "${mirror}"`);
      const dir = typeof v.dir === 'string' ? path.resolve(v.dir) : publicDataDir();

      const report = await fetchPublicData({
        manifest: PUBLIC_DATA_MANIFEST,
        dir,
        mirror,
        only,
        ifMissing: !!v['if-missing'],
        progress: stderrProgress(),
      });

      const count = (s: FileOutcome['status']) => report.files.filter((f) => f.status === s).length;
      const parts = [`${count('downloaded')} downloaded`, `${count('up-to-date')} up to date`];
      if (count('present')) parts.push(`${count('present')} already present`);
      parts.push(`${report.failed.length} failed`);
      process.stdout.write(`${dir}: ${parts.join(', ')}.\n`);
      if (report.readme === 'written') process.stdout.write("Wrote README.md there with each dataset's source, commit and licence.\n");

      if (!report.failed.length) return 0;
      const offlineOnly = report.failed.every((f) => (f.status === 'failed' && f.reason === 'unreachable') || f.status === 'skipped');
      if (v['quiet-offline'] && offlineOnly) {
        const held = report.files.some((f) => f.status !== 'failed' && f.status !== 'skipped');
        for (const host of report.unreachable) {
          process.stderr.write(
            `could not reach ${host}: the demo will hold ${held ? 'the hand-written studies and the datasets already present' : 'the hand-written studies only'}; ` +
              'run `npx concord data fetch` later\n',
          );
        }
        return 0;
      }
      process.stderr.write(
        `concord data fetch: ${report.failed.length} file(s) not fetched; nothing was written under their names. ` +
          'Files that arrived are kept: run the command again to fetch the rest.\n',
      );
      return 1;
    },
  },
];
