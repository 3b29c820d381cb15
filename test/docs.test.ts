/**
 * The docs a reader follows stay true: every relative link and anchor in README.md, docs/**.md, the folder READMEs
 * under lib/, BENCHMARKS.md and bench/README.md leads somewhere, every `npx concord <command>` they show is a command the CLI registers (with
 * the options it takes), every `npm run <script>` is in package.json, and the README stays a front page
 * (at most 15,000 characters). Every CLI command is in docs/cli.md, every route of app/api in docs/api.md, and every
 * decision record has a date and a status.
 * Nothing runs here but file reads and the import of the CLI's command modules (no database, no network).
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
const README_LIMIT = 15_000;

function markdownFiles(): string[] {
  const out = ['README.md', 'BENCHMARKS.md', 'bench/README.md'];
  const walk = (dir: string, keep: (name: string) => boolean) => {
    for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
      const rel = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(rel, keep);
      else if (keep(entry.name)) out.push(rel);
    }
  };
  walk('docs', (name) => name.endsWith('.md'));
  walk('lib', (name) => name === 'README.md');
  return out.sort();
}

const read = (rel: string) => fs.readFileSync(path.join(ROOT, rel), 'utf8');

/** The text outside fenced code blocks, line numbers kept (fenced lines become empty). */
function proseLines(text: string): string[] {
  let fenced = false;
  return text.split('\n').map((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return '';
    }
    return fenced ? '' : line;
  });
}

/** GitHub's heading anchor: lower case, punctuation dropped (not `-` or `_`), each space a `-`; repeats get -1, -2. */
function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of proseLines(text)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      const base = heading[1]
        .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
        .toLowerCase()
        .replace(/[^\p{L}\p{N}\p{M}\s_-]/gu, '')
        .replace(/ /g, '-');
      const n = seen.get(base) ?? 0;
      seen.set(base, n + 1);
      anchors.add(n ? `${base}-${n}` : base);
    }
    for (const m of line.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(m[1]);
  }
  return anchors;
}

/** Inline links `[text](target)` outside code, as written. */
function linksOf(text: string): { target: string; line: number }[] {
  const links: { target: string; line: number }[] = [];
  proseLines(text).forEach((line, i) => {
    const withoutCode = line.replace(/`[^`]*`/g, '');
    for (const m of withoutCode.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) links.push({ target: m[1], line: i + 1 });
  });
  return links;
}

/** Where a relative link of `file` (whose text is `text`) fails: no such file or folder, or no such heading there. */
function deadLinksIn(file: string, text: string): string[] {
  const dead: string[] = [];
  for (const { target, line } of linksOf(text)) {
    if (/^[a-z][a-z+.-]*:/i.test(target)) continue; // http:, https:, mailto:
    const [rawPath, anchor] = target.split('#', 2);
    const where = `${file}:${line} → ${target}`;
    const resolved = rawPath ? path.posix.normalize(path.posix.join(path.posix.dirname(file), decodeURI(rawPath))) : file;
    const targetText = () => (resolved === file ? text : read(resolved));
    if (resolved !== file && (resolved.startsWith('..') || !fs.existsSync(path.join(ROOT, resolved)))) {
      dead.push(`${where} (no such file)`);
      continue;
    }
    if (anchor === undefined || anchor === '') continue;
    if (resolved.endsWith('.md')) {
      if (!anchorsOf(targetText()).has(decodeURIComponent(anchor))) dead.push(`${where} (no such heading)`);
    } else if (/^L\d+/.test(anchor)) {
      if (targetText().split('\n').length < Number(/^L(\d+)/.exec(anchor)![1])) dead.push(`${where} (the file is shorter)`);
    } else dead.push(`${where} (an anchor into a file that is not Markdown)`);
  }
  return dead;
}

type CliCommand = { name: string; options?: Record<string, unknown> };

/**
 * The commands `lib/cli/main.ts` registers, read as main.ts reads them: its `COMMANDS` list is an array of spread
 * imported lists (or an imported list); each module is imported here and the names taken from the objects. main.ts
 * itself is not imported, because importing it runs the command line.
 */
async function cliCommands(): Promise<CliCommand[]> {
  const mainFile = 'lib/cli/main.ts';
  const sf = ts.createSourceFile(mainFile, read(mainFile), ts.ScriptTarget.Latest, true);
  const imported = new Map<string, { module: string; exported: string }>();
  let list: ts.ArrayLiteralExpression | undefined;
  let listImport: string | undefined;
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const bindings = node.importClause?.namedBindings;
      if (bindings && ts.isNamedImports(bindings)) {
        for (const el of bindings.elements) {
          imported.set(el.name.text, { module: node.moduleSpecifier.text, exported: (el.propertyName ?? el.name).text });
        }
      }
    }
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.name.text === 'COMMANDS' && node.initializer) {
      if (ts.isArrayLiteralExpression(node.initializer)) list = node.initializer;
      else if (ts.isIdentifier(node.initializer)) listImport = node.initializer.text;
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  const names: string[] = list
    ? list.elements.map((el) => {
        let expr = ts.isSpreadElement(el) ? el.expression : el;
        // `...reportCommands()`: a list made by an imported function. `batchCommand((argv) => main(argv))`: its argument
        // is used only when the command runs, so the names are read from a call without it.
        if (ts.isCallExpression(expr)) expr = expr.expression;
        if (!ts.isIdentifier(expr)) throw new Error(`${mainFile}: COMMANDS holds ${expr.getText(sf)}, which this test cannot follow`);
        return expr.text;
      })
    : listImport
      ? [listImport]
      : [...imported.keys()].filter((n) => n === 'COMMANDS');
  if (!names.length) throw new Error(`${mainFile}: no COMMANDS list found; teach test/docs.test.ts where the CLI registers its commands`);
  const commands: CliCommand[] = [];
  for (const name of names) {
    const source = imported.get(name);
    if (!source) throw new Error(`${mainFile}: ${name} is not imported from a module`);
    const specifier = source.module.startsWith('.') ? path.join(ROOT, 'lib/cli', source.module) : source.module;
    const mod = (await import(specifier)) as Record<string, unknown>;
    const exported = mod[source.exported];
    const value: unknown = typeof exported === 'function' ? (exported as () => unknown)() : exported;
    for (const c of (Array.isArray(value) ? value : [value]) as CliCommand[]) commands.push(c);
  }
  return commands;
}

interface Mention {
  where: string;
  words: string[];
  options: string[];
  /** Followed by `…`: any command whose name starts with the words. */
  family: boolean;
}

/**
 * `npx concord …` anywhere, and `concord …` at the start of inline code, with the words and `--options` after it.
 * A code span wrapped onto the next line is followed there. `…` after the words stands for any of that family
 * (`concord report … --json`).
 */
function concordMentions(where: string, text: string): Mention[] {
  const mentions: Mention[] = [];
  const lines = text.split('\n');
  lines.forEach((line, i) => {
    const starts = [
      ...[...line.matchAll(/npx concord\b/g)].map((m) => ({ at: m.index! + m[0].length, inCode: false })),
      ...[...line.matchAll(/`concord\b/g)].map((m) => ({ at: m.index! + m[0].length, inCode: true })),
    ];
    for (const { at, inCode } of starts) {
      let rest = line.slice(at);
      // Inline code that goes on over the line break (a wrapped paragraph).
      if ((inCode || (line.slice(0, at).match(/`/g) ?? []).length % 2 === 1) && !rest.includes('`') && i + 1 < lines.length) {
        rest += ` ${lines[i + 1]}`;
      }
      // The rest of the command: to the end of its code span, a comment, or the line.
      rest = rest.split(/`|\s#\s|\s{3,}#/)[0];
      const tokens = rest.trim().split(/\s+/).filter(Boolean);
      const words: string[] = [];
      for (const t of tokens) {
        if (!/^[a-z][a-z|-]*$/.test(t) || words.length >= 3) break;
        words.push(t);
      }
      const family = tokens[words.length] === '…';
      const options = tokens.filter((t) => /^\[?--[a-z]/.test(t)).map((t) => /--([a-z][a-z-]*)/.exec(t)![1]);
      if (words.length) mentions.push({ where: `${where}:${i + 1}: concord ${tokens.join(' ')}`, words, options, family });
    }
  });
  return mentions;
}

/**
 * The usage lines of docs/cli.md's code blocks, written without `npx concord`: `report bias --study S [--json]`,
 * two on a line separated by `·`. Lines of examples (`npx concord …`, caught above), comments and JSON are left out.
 */
function usageMentions(where: string, text: string): Mention[] {
  const mentions: Mention[] = [];
  let fenced = false;
  text.split('\n').forEach((line, i) => {
    if (/^\s*```/.test(line)) {
      fenced = !fenced;
      return;
    }
    if (!fenced || !/^[a-z]/.test(line) || line.includes('npx concord')) return;
    for (const usage of line.split('·')) {
      const tokens = usage.trim().split(/\s+/).filter(Boolean);
      const words: string[] = [];
      for (const t of tokens) {
        if (!/^[a-z][a-z-]*$/.test(t) || words.length >= 3) break;
        words.push(t);
      }
      const options = tokens.filter((t) => /^\[?--[a-z]/.test(t)).map((t) => /--([a-z][a-z-]*)/.exec(t)![1]);
      if (words.length) mentions.push({ where: `${where}:${i + 1}: ${tokens.join(' ')}`, words, options, family: false });
    }
  });
  return mentions;
}

/** What a mention gets wrong against the registered commands: an unknown command, or an option it does not take. */
function wrongCommands(commands: CliCommand[], mentions: Mention[]): string[] {
  const wrong: string[] = [];
  for (const mention of mentions) {
    // An option must belong to the command, or with `a|b` alternatives (or a family) to at least one of them.
    const known = new Set<string>(['help']);
    for (const words of spellings(mention.words)) {
      const starts = (c: CliCommand) =>
        mention.family ? words.every((w, k) => c.name.split(' ')[k] === w) : c.name.split(' ').every((w, k) => words[k] === w);
      const matching = commands.filter(starts);
      if (!matching.length) wrong.push(`${mention.where} (no command "${words.join(' ')}")`);
      // `judge endpoint add x` is `judge endpoint add`, not `judge endpoint list`: the longest matching name.
      const chosen = mention.family ? matching : matching.sort((a, b) => b.name.length - a.name.length).slice(0, 1);
      for (const c of chosen) for (const option of Object.keys(c.options ?? {})) known.add(option);
    }
    for (const option of mention.options) if (!known.has(option)) wrong.push(`${mention.where} (no option --${option})`);
  }
  return wrong;
}

/** Each `a|b|c` word spelled out: `report agreement|alignment` → `report agreement`, `report alignment`. */
function spellings(words: string[]): string[][] {
  return words.reduce<string[][]>((acc, w) => acc.flatMap((prefix) => w.split('|').map((alt) => [...prefix, alt])), [[]]);
}

describe('the docs checker itself', () => {
  it('finds a missing file, a missing heading and a missing heading of the same page', () => {
    const text = [
      '# Guide',
      '## `report agreement --json`',
      'See [cli](cli.md#data-fetch), [gone](cli.md#no-such-heading), [nothing](nothing.md), [here](#guide),',
      '[the report](#report-agreement---json), [missing here](#elsewhere), [web](https://example.org/x.md) and `[code](x.md)`.',
    ].join('\n');
    expect(deadLinksIn('docs/example.md', text)).toEqual([
      'docs/example.md:3 → cli.md#no-such-heading (no such heading)',
      'docs/example.md:3 → nothing.md (no such file)',
      'docs/example.md:4 → #elsewhere (no such heading)',
    ]);
  });

  it('finds an unknown command and an option the command does not take', () => {
    const commands: CliCommand[] = [
      { name: 'report agreement', options: { study: {}, json: {} } },
      { name: 'report alignment', options: { study: {}, judge: {} } },
      { name: 'judge endpoint add', options: { url: {} } },
      { name: 'seed', options: { 'if-empty': {} } },
    ];
    const text = [
      'npx concord report agreement|alignment --study 4 [--judge NAME] --json   # fields',
      'npx concord seed [--if-empty]',
      'run `concord judge endpoint',
      'add --url U` or `concord report … --json`, never `npx concord report --colour` or `concord reset`',
    ].join('\n');
    expect(wrongCommands(commands, concordMentions('x.md', text))).toEqual([
      'x.md:4: concord report --colour (no command "report")',
      'x.md:4: concord report --colour (no option --colour)',
      'x.md:4: concord reset (no command "reset")',
    ]);
  });

  it('reads the usage lines of a code block, two on a line', () => {
    const commands: CliCommand[] = [
      { name: 'judge endpoint list', options: { json: {} } },
      { name: 'judge endpoint remove', options: {} },
    ];
    const text = [
      '```',
      'judge endpoint list [--json]   ·   judge endpoint remove NAME [--force]',
      'judge endpoint rename A B',
      '```',
    ].join('\n');
    expect(wrongCommands(commands, usageMentions('cli.md', text))).toEqual([
      'cli.md:2: judge endpoint remove NAME [--force] (no option --force)',
      'cli.md:3: judge endpoint rename A B (no command "judge endpoint rename")',
    ]);
  });
});

describe('the docs', () => {
  it(`keep README.md a front page of at most ${README_LIMIT.toLocaleString('en')} characters`, () => {
    expect(read('README.md').length).toBeLessThanOrEqual(README_LIMIT);
  });

  it('have no dead relative link or anchor (README.md, docs/, the READMEs under lib/, the benchmarks)', () => {
    expect(markdownFiles().flatMap((file) => deadLinksIn(file, read(file)))).toEqual([]);
  });

  it('show only npm scripts that package.json has', () => {
    const scripts = new Set(Object.keys((JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts));
    const missing: string[] = [];
    for (const file of markdownFiles()) {
      read(file)
        .split('\n')
        .forEach((line, i) => {
          for (const m of line.matchAll(/npm run ([\w:.-]+)/g)) if (!scripts.has(m[1])) missing.push(`${file}:${i + 1}: npm run ${m[1]}`);
        });
    }
    expect(missing).toEqual([]);
  });

  it('show only concord commands and options that the CLI registers', async () => {
    const commands = await cliCommands();
    expect(commands.length).toBeGreaterThan(10);
    const wrong: string[] = [];
    // Decision records are history, never edited: they name commands as they were, or as planned (0011).
    for (const file of markdownFiles().filter((f) => !f.startsWith('docs/decisions/'))) {
      wrong.push(...wrongCommands(commands, concordMentions(file, read(file))));
    }
    wrong.push(...wrongCommands(commands, usageMentions('docs/cli.md', read('docs/cli.md'))));
    expect(wrong).toEqual([]);
  });

  it('give every decision record a date and a status, and a superseded one the record that replaces it', () => {
    const records = fs.readdirSync(path.join(ROOT, 'docs/decisions')).filter((f) => /^\d{4}-.*\.md$/.test(f));
    expect(records.length).toBeGreaterThanOrEqual(19);
    const wrong: string[] = [];
    for (const record of records) {
      const head = read(`docs/decisions/${record}`).split('\n').slice(0, 8).join('\n');
      if (!/^Date: \d{4}-\d{2}-\d{2}$/m.test(head)) wrong.push(`${record}: no "Date: YYYY-MM-DD" line under the title`);
      const status = /^Status: (.+)$/m.exec(head)?.[1];
      if (!status) wrong.push(`${record}: no "Status:" line under the title`);
      else if (!/^(accepted|superseded by)\b/.test(status))
        wrong.push(`${record}: status "${status}" is neither accepted nor superseded by …`);
      const by = status && /^superseded by \[?(\d{4})/.exec(status)?.[1];
      if (by && !records.some((r) => r.startsWith(`${by}-`))) wrong.push(`${record}: superseded by ${by}, which does not exist`);
    }
    expect(wrong).toEqual([]);
  });

  it('list every route under app/api, with each method it exports, in docs/api.md, and no other', () => {
    const routes: string[] = [];
    const walk = (dir: string) => {
      for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
        const rel = `${dir}/${entry.name}`;
        if (entry.isDirectory()) walk(rel);
        else if (entry.name === 'route.ts' && !rel.includes('[...')) {
          // app/api/studies/[id]/queue/route.ts → /api/studies/:id/queue; Auth.js's catch-all is Auth.js's own.
          const url = `/${dir.replace(/^app\//, '').replace(/\[(\w+)\]/g, ':$1')}`;
          for (const m of read(rel).matchAll(/export (?:const|async function|function) (GET|POST|PUT|PATCH|DELETE)\b/g))
            routes.push(`${m[1]} ${url}`);
        }
      }
    };
    walk('app/api');
    expect(routes.length).toBeGreaterThan(10);
    const documented = [...read('docs/api.md').matchAll(/`((?:GET|POST|PUT|PATCH|DELETE) \/api\/[^`\s]*)`/g)].map((m) => m[1]);
    expect([...new Set(documented)].sort()).toEqual(routes.sort());
  });

  it('name every command the CLI registers in docs/cli.md', async () => {
    const reference = read('docs/cli.md');
    const undocumented = (await cliCommands())
      .map((c) => c.name)
      .filter((name) => !new RegExp(`(^|[\\s\`])${name.replace(/[-]/g, '\\-')}(?=[\\s\`]|$)`, 'm').test(reference));
    expect(undocumented).toEqual([]);
  });
});
