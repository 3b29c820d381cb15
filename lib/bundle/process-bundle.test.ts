import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempTree } from '@/test/temp-tree';
import { cliBundle } from './cli-bundle.mjs';

/*
 * The CLI's bundle on a small source tree of its own: lib/cli/main.ts importing through the tsconfig path alias, so
 * each case builds in well under a second. The real CLI runs from it in every CLI test.
 */

const tree = useTempTree('concord-cli-bundle-', {
  'tsconfig.json': JSON.stringify({ compilerOptions: { baseUrl: '.', paths: { '@/*': ['./*'] } } }),
  'package.json': '{"type":"module"}\n',
  'lib/words.ts': "export const greeting: string = 'hello';\n",
  'lib/cli/main.ts': "import { greeting } from '@/lib/words';\nconsole.log([greeting, ...process.argv.slice(2)].join(' '));\n",
});
const write = tree.write;
const bundles = () => fs.readdirSync(path.join(tree.root, 'node_modules', '.cache', 'concord-cli')).sort();
const runBundle = (file: string) => spawnSync(process.execPath, [file, 'a', 'b'], { encoding: 'utf8' });

describe('the CLI bundle', () => {
  it('is built once for the same sources, runs as the sources would, and is built again when one changes', () => {
    const first = cliBundle(tree.root);
    expect(runBundle(first).stdout).toBe('hello a b\n');
    const builtAt = fs.statSync(first).mtimeMs;
    expect(cliBundle(tree.root)).toBe(first);
    expect(fs.statSync(first).mtimeMs).toBe(builtAt);

    write('lib/words.ts', "export const greeting: string = 'bonjour';\n");
    const second = cliBundle(tree.root);
    expect(second).not.toBe(first);
    expect(runBundle(second).stdout).toBe('bonjour a b\n');
    // the older bundle is removed when the new one is written; nothing half-written is left
    expect(bundles()).toEqual([path.basename(second)]);

    write('package.json', '{"type":"module","name":"x"}\n');
    expect(cliBundle(tree.root)).not.toBe(second);
  });

  it('gives commands started at once the same whole bundle', async () => {
    const script = `import { cliBundle } from ${JSON.stringify(path.resolve('lib/cli/cli-bundle.mjs'))}; console.log(cliBundle(process.argv[1]));`;
    const start = () =>
      new Promise<string>((resolve, reject) => {
        const child = spawn(process.execPath, ['--input-type=module', '-e', script, tree.root]);
        let out = '';
        child.stdout.on('data', (d: Buffer) => (out += d));
        child.on('error', reject);
        child.on('close', (code) => (code === 0 ? resolve(out.trim()) : reject(new Error(`exit ${code}`))));
      });
    const files = await Promise.all([start(), start(), start(), start()]);
    expect(new Set(files).size).toBe(1);
    expect(runBundle(files[0]).stdout).toBe('hello a b\n');
    expect(bundles()).toEqual([path.basename(files[0])]);
  });

  it('says what failed when the sources do not build, and leaves no bundle', () => {
    write('lib/words.ts', "export const greeting: string = 'hello;\n");
    expect(() => cliBundle(tree.root)).toThrow(/lib\/words\.ts:1:\d+: ERROR: Unterminated string literal/);
    expect(fs.existsSync(path.join(tree.root, 'node_modules', '.cache', 'concord-cli')) ? bundles() : []).toEqual([]);
  });
});
