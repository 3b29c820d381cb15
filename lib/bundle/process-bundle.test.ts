import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempTree } from '@/test/temp-tree';
import { processBundle } from './process-bundle.mjs';

/*
 * The bundle on a small source tree of its own: two processes importing one module through the tsconfig path alias,
 * so each case builds in well under a second. The real CLI runs from it in every CLI test, and the server's
 * children (imports, reports, judge runs, backups) in the service tests that start them.
 */

const PROCESSES = { cli: 'lib/cli/main.ts', 'a-child': 'lib/server/a-child.ts' };

const tree = useTempTree('concord-process-bundle-', {
  'tsconfig.json': JSON.stringify({ compilerOptions: { baseUrl: '.', paths: { '@/*': ['./*'] } } }),
  'package.json': '{"type":"module"}\n',
  'lib/words.ts': "export const greeting: string = 'hello';\n",
  'lib/cli/main.ts': "import { greeting } from '@/lib/words';\nconsole.log([greeting, ...process.argv.slice(2)].join(' '));\n",
  'lib/server/a-child.ts': "import { greeting } from '@/lib/words';\nconsole.log(`child: ${greeting}`);\n",
});
const write = tree.write;
const cache = () => path.join(tree.root, 'node_modules', '.cache', 'concord-bundle');
const folders = () => (fs.existsSync(cache()) ? fs.readdirSync(cache()).sort() : []);
const run = (folder: string, name: string) =>
  spawnSync(process.execPath, [path.join(folder, `${name}.mjs`), 'a', 'b'], { encoding: 'utf8' }).stdout;

describe('the bundled processes', () => {
  it('are built once for the same sources, one whole file each, run as the sources would, and are built again when one changes', () => {
    const first = processBundle(tree.root, PROCESSES);
    // One file per process and nothing else: a process never loads a file of its folder after it started.
    expect(fs.readdirSync(first).sort()).toEqual(['a-child.mjs', 'cli.mjs']);
    expect(run(first, 'cli')).toBe('hello a b\n');
    expect(run(first, 'a-child')).toBe('child: hello\n');
    const builtAt = fs.statSync(path.join(first, 'cli.mjs')).mtimeMs;
    expect(processBundle(tree.root, PROCESSES)).toBe(first);
    expect(fs.statSync(path.join(first, 'cli.mjs')).mtimeMs).toBe(builtAt);

    write('lib/words.ts', "export const greeting: string = 'bonjour';\n");
    const second = processBundle(tree.root, PROCESSES);
    expect(second).not.toBe(first);
    expect(run(second, 'cli')).toBe('bonjour a b\n');
    expect(run(second, 'a-child')).toBe('child: bonjour\n');
    // the older folder is removed when the new one is written; nothing half-written is left
    expect(folders()).toEqual([path.basename(second)]);

    write('package.json', '{"type":"module","name":"x"}\n');
    expect(processBundle(tree.root, PROCESSES)).not.toBe(second);
    // a different set of processes is a different bundle
    expect(processBundle(tree.root, { cli: PROCESSES.cli })).not.toBe(processBundle(tree.root, PROCESSES));
  });

  it('gives processes started at once the same whole folder', async () => {
    const script = `import { processBundle } from ${JSON.stringify(path.resolve('lib/bundle/process-bundle.mjs'))};
console.log(processBundle(process.argv[1], ${JSON.stringify(PROCESSES)}));`;
    const start = () =>
      new Promise<string>((resolve, reject) => {
        const child = spawn(process.execPath, ['--input-type=module', '-e', script, tree.root]);
        let out = '';
        child.stdout.on('data', (d: Buffer) => (out += d));
        child.on('error', reject);
        child.on('close', (code) => (code === 0 ? resolve(out.trim()) : reject(new Error(`exit ${code}`))));
      });
    const built = await Promise.all([start(), start(), start(), start()]);
    expect(new Set(built).size).toBe(1);
    expect(run(built[0], 'cli')).toBe('hello a b\n');
    expect(folders()).toEqual([path.basename(built[0])]);
    expect(fs.readdirSync(built[0]).sort()).toEqual(['a-child.mjs', 'cli.mjs']);
  });

  it('says what failed when the sources do not build, and leaves no bundle', () => {
    write('lib/words.ts', "export const greeting: string = 'hello;\n");
    expect(() => processBundle(tree.root, PROCESSES)).toThrow(/lib\/words\.ts:1:\d+: ERROR: Unterminated string literal/);
    expect(folders()).toEqual([]);
  });
});
