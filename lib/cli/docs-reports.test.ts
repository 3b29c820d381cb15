import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPORT_ROLES, type ReportName } from '@/lib/server/analytics/dto';
import { REPORTS, reportKinds } from '@/lib/server/analytics/report';
import { REPORT_COMMANDS } from './report-commands';

/*
 * docs/cli.md against the report registry: the list of reports (kinds, command, CSV tables) and the synopsis of
 * the report commands. A report, a table or an option added in code and not in the manual fails here.
 */

const DOC = fs.readFileSync(path.join(import.meta.dirname, '..', '..', 'docs', 'cli.md'), 'utf8');

const ticks = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]);

/** The rows of the report table: the Markdown table whose header starts with `| report | kinds |`. */
function documentedReports() {
  const start = DOC.indexOf('| report | kinds | command | CSV tables |');
  expect(start, 'docs/cli.md has the table of reports').toBeGreaterThan(-1);
  const rows = DOC.slice(start)
    .split('\n')
    .slice(2)
    .filter((_, i, all) => all.slice(0, i + 1).every((l) => l.startsWith('|')));
  return rows.map((line) => {
    const [report, kinds, command, tables] = line.split('|').slice(1, -1).map((c) => c.trim());
    return { report: ticks(report)[0], kinds: kinds.split(/,\s*/), command: ticks(command)[0], tables: ticks(tables) };
  });
}

/** The words of the synopsis line of `command` in the reports' code block: flags and their placeholders. */
const flags = (usage: string) => [...usage.matchAll(/--[a-z-]+/g)].map((m) => m[0]);

describe('docs/cli.md', () => {
  it('lists every report of the registry, the kinds it reads, its command and its CSV tables, and nothing else', () => {
    const documented = documentedReports();
    const names = Object.keys(REPORTS) as ReportName[];
    expect(documented.map((d) => d.report).sort()).toEqual([...names].sort());
    for (const d of documented) {
      const name = d.report as ReportName;
      expect(d.kinds, d.report).toEqual(reportKinds(name));
      expect(d.command, d.report).toBe(`report ${REPORTS[name].role}`);
      expect(d.tables, d.report).toEqual([...REPORTS[name].tables]);
    }
  });

  it('gives every report command in the synopsis with the options the command takes', () => {
    // The code block under "Reports and judge runs" (the page opens with examples of every command).
    const open = DOC.indexOf('```\n', DOC.indexOf('\n## Reports and judge runs\n')) + 4;
    const synopsis = DOC.slice(open, DOC.indexOf('\n```', open)).split('\n');
    const commands = REPORT_COMMANDS.filter((c) => c.name.startsWith('report '));
    expect(commands.map((c) => c.name)).toEqual(REPORT_ROLES.map((r) => `report ${r}`));
    for (const c of commands) {
      const line = synopsis.find((l) => l.startsWith(`${c.name} `));
      expect(line, `${c.name} in the synopsis`).toBeDefined();
      expect(flags(line!), c.name).toEqual(flags(c.usage));
      expect(flags(c.usage).sort(), `${c.name}: its usage names every option it takes`).toEqual(
        Object.keys(c.options ?? {})
          .map((o) => `--${o}`)
          .sort(),
      );
    }
  });
});
