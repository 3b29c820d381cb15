import fs from 'node:fs';
import path from 'node:path';

const MIGRATIONS = path.join(process.cwd(), 'db', 'migrations');

/**
 * A copy under `dir` of the committed migrations up to and including `tag`, with their journal cut there: a
 * database migrated with it is what an older Concord left behind, for testing what a later migration does to it.
 */
export function migrationsUpTo(dir: string, tag: string): string {
  const folder = path.join(dir, `migrations-${tag}`);
  fs.mkdirSync(path.join(folder, 'meta'), { recursive: true });
  const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS, 'meta', '_journal.json'), 'utf8')) as { entries: { tag: string }[] };
  const last = journal.entries.findIndex((e) => e.tag === tag);
  if (last < 0) throw new Error(`no migration ${tag} in ${MIGRATIONS}`);
  journal.entries = journal.entries.slice(0, last + 1);
  fs.writeFileSync(path.join(folder, 'meta', '_journal.json'), JSON.stringify(journal));
  for (const e of journal.entries) fs.copyFileSync(path.join(MIGRATIONS, `${e.tag}.sql`), path.join(folder, `${e.tag}.sql`));
  return folder;
}
