import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { publicDataDir } from '@/lib/io/public-data';
import { PAGE, REPETITIONS, computeFigures, pageBlock, renderFigures } from './fewest-labels';

/*
 * The figures of docs/guide/fewest-labels.md are what bench/fewest-labels.ts computes from the public data, with the
 * page's own number of repetitions (about 10 s). Only a machine without the public data skips this.
 */
const dir = publicDataDir();
const haveData = fs.existsSync(`${dir}/pandalm/testset-v1.json`) && fs.existsSync(`${dir}/mrbench/MRBench_V1.json`);

/** A Markdown table's body rows as cells, and the text lines around them. */
function parse(block: string) {
  const rows = block
    .split('\n')
    .filter((l) => l.startsWith('|') && !l.startsWith('|---'))
    .map((l) =>
      l
        .slice(1, -1)
        .split('|')
        .map((c) => c.trim()),
    );
  const prose = block.split('\n').filter((l) => l.trim() && !l.startsWith('|'));
  return { rows, prose };
}

describe.skipIf(!haveData)(`the fewest-labels page (needs PandaLM and MRBench in ${dir})`, () => {
  it('shows the tables the script computes from the data', () => {
    const page = parse(pageBlock(fs.readFileSync(PAGE, 'utf8')));
    const fresh = parse(renderFigures(computeFigures(dir, REPETITIONS)));
    // Two tables: three targets and ten acceptance rows, each with its header.
    expect(page.rows).toHaveLength(2 + 3 + 10);
    expect(page.rows).toEqual(fresh.rows);
    expect(page.prose).toEqual(fresh.prose);
    // What the page's prose rests on: ±3 is not reached by an active design, uniform PPI++ reaches it.
    const three = page.rows.find((r) => r[0] === '±3 points')!;
    expect(Number(three[1])).toBeGreaterThan(900);
    expect(three.slice(3, 6)).toEqual(['not reached', 'not reached', 'not reached']);
    // And error-bounded acceptance keeps nothing of GPT-3.5 on PandaLM.
    expect(page.rows.filter((r) => r[0] === 'PandaLM, GPT-3.5').map((r) => r[3])).toEqual(['0.0 %', '0.0 %']);
  }, 120_000);
});
