import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempTree } from '@/test/temp-tree';

/*
 * `npm run demo`'s build step on a small source tree of its own, with a stand-in build command that writes
 * .next/BUILD_ID and counts its runs (or fails on request), so each case runs in milliseconds.
 */

const SCRIPT = path.resolve(import.meta.dirname, 'build-if-changed.mjs');
const tree = useTempTree('concord-build-', {
  'app/page.tsx': 'export default 1;\n',
  'lib/server/x.ts': 'export const x = 1;\n',
  'package-lock.json': '{"lockfileVersion":3}\n',
});
const write = tree.write;
const builds = () =>
  fs.existsSync(path.join(tree.root, 'builds.log')) ? fs.readFileSync(path.join(tree.root, 'builds.log'), 'utf8').length : 0;

const BUILD = `
const fs = require('fs');
fs.appendFileSync('builds.log', 'x');
if (fs.existsSync('fail-build')) process.exit(3);
fs.mkdirSync('.next', { recursive: true });
fs.writeFileSync('.next/BUILD_ID', 'b');
`;

function run() {
  const r = spawnSync(process.execPath, [SCRIPT, '--root', tree.root, '--', process.execPath, '-e', BUILD], { encoding: 'utf8' });
  return { status: r.status, out: r.stdout + r.stderr };
}

describe('build-if-changed', () => {
  it('builds the first time, then not again while nothing changed', () => {
    const first = run();
    expect(first.status, first.out).toBe(0);
    expect(first.out).toContain('Building: there is no build yet.');
    expect(builds()).toBe(1);
    const second = run();
    expect(second.status, second.out).toBe(0);
    expect(second.out).toContain('Build is up to date');
    expect(builds()).toBe(1);
  });

  it('builds again when a source file, a new file or the lockfile changes', () => {
    run();
    write('lib/server/x.ts', 'export const x = 2;\n');
    expect(run().out).toContain('the source changed since the last build');
    expect(builds()).toBe(2);
    write('components/new.tsx', 'export {};\n');
    run();
    expect(builds()).toBe(3);
    write('package-lock.json', '{"lockfileVersion":3,"packages":{}}\n');
    run();
    expect(builds()).toBe(4);
    expect(run().out).toContain('Build is up to date');
    expect(builds()).toBe(4);
  });

  it('does not rebuild for a changed test or note', () => {
    run();
    write('lib/server/x.test.ts', 'it("x", () => {});\n');
    write('lib/server/README.md', '# notes\n');
    expect(run().out).toContain('Build is up to date');
    expect(builds()).toBe(1);
  });

  it('after a failed build records nothing, so the next run builds again', () => {
    run();
    write('app/page.tsx', 'export default 2;\n');
    write('fail-build', '');
    const failed = run();
    expect(failed.status).toBe(3);
    expect(failed.out).toContain('Build failed');
    expect(fs.existsSync(path.join(tree.root, '.next', 'concord-source-hash'))).toBe(false);
    fs.rmSync(path.join(tree.root, 'fail-build'));
    expect(run().out).toContain('the last build has no recorded source fingerprint');
    expect(builds()).toBe(3);
  });

  it('builds when the build output is gone even if its fingerprint matches', () => {
    run();
    fs.rmSync(path.join(tree.root, '.next', 'BUILD_ID'));
    expect(run().out).toContain('there is no build yet');
    expect(builds()).toBe(2);
  });
});
