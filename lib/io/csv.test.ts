import { describe, expect, it } from 'vitest';
import { csvHeader, csvLine, csvLines, neutralizeCell } from './csv';
import { jsonlLine } from './jsonl-out';

/** A strict reader of one RFC 4180 record ending in CRLF, to check what csvLine writes. */
function readRecord(text: string): string[] {
  const cells: string[] = [];
  let i = 0;
  for (;;) {
    let cell = '';
    if (text[i] === '"') {
      i++;
      for (;;) {
        if (text[i] === '"' && text[i + 1] === '"') {
          cell += '"';
          i += 2;
        }
        else if (text[i] === '"') break;
        else if (i >= text.length) throw new Error('unterminated quote');
        else cell += text[i++];
      }
      i++;
    } else {
      while (i < text.length && text[i] !== ',' && text[i] !== '\r') {
        if (text[i] === '"' || text[i] === '\n') throw new Error(`unquoted special character at ${i}`);
        cell += text[i++];
      }
    }
    cells.push(cell);
    if (text[i] === ',') i++;
    else if (text.slice(i) === '\r\n') return cells;
    else throw new Error(`unexpected text after a cell at ${i}`);
  }
}

describe('neutralizeCell', () => {
  it('prefixes a quote to strings a spreadsheet would run as formulas', () => {
    expect(neutralizeCell('=1+1')).toBe("'=1+1");
    expect(neutralizeCell('+x')).toBe("'+x");
    expect(neutralizeCell('-1')).toBe("'-1");
    expect(neutralizeCell('@a')).toBe("'@a");
    expect(neutralizeCell('\tx')).toBe("'\tx");
    expect(neutralizeCell('\rx')).toBe("'\rx");
  });

  it('neutralises formulas after a ; or , too, where a spreadsheet in another locale splits the cell', () => {
    expect(neutralizeCell("x;=cmd|' /C calc'!A0;y")).toBe("x;'=cmd|' /C calc'!A0;y");
    expect(neutralizeCell('a,+1;-2;@b')).toBe("a,'+1;'-2;'@b");
    // The CR after the comma starts a line of its own too: both get their quote.
    expect(neutralizeCell('a;\t=1,\r=2')).toBe("a;'\t=1,'\r'=2");
    expect(neutralizeCell('=1;=2')).toBe("'=1;'=2");
    expect(neutralizeCell('hallucinated_material;other')).toBe('hallucinated_material;other');
    expect(neutralizeCell('a; =1, b')).toBe('a; =1, b');
  });

  it('neutralises formulas after a line break, where an importer that ignores quotes starts a new row', () => {
    expect(neutralizeCell('x\n=HYPERLINK("http://evil.example","x")')).toBe('x\n\'=HYPERLINK("http://evil.example","x")');
    expect(neutralizeCell('x\r\n+1')).toBe("x\r\n'+1");
    expect(neutralizeCell('x\r@a\n-2')).toBe("x\r'@a\n'-2");
    expect(neutralizeCell('x\n\t=1')).toBe("x\n'\t=1");
    expect(neutralizeCell('first line\nsecond line')).toBe('first line\nsecond line');
  });

  it('leaves other strings and non-strings alone', () => {
    expect(neutralizeCell('a=1')).toBe('a=1');
    expect(neutralizeCell('')).toBe('');
    expect(neutralizeCell(-1)).toBe(-1);
    expect(neutralizeCell(null)).toBe(null);
  });
});

describe('csvLine', () => {
  it('quotes every text cell, doubles quotes (RFC 4180) and ends rows with CRLF', () => {
    expect(csvLine(['a,b', 'say "hi"', 'two\nlines', 'cr\rhere', 'plain', ''])).toBe(
      '"a,b","say ""hi""","two\nlines","cr\rhere","plain",""\r\n',
    );
  });

  it('neutralises string cells inside their quotes', () => {
    expect(csvLine(['=1+1', '+x', '-1', '@a', '\tx', '\rx'])).toBe(`"'=1+1","'+x","'-1","'@a","'\tx","'\rx"\r\n`);
    expect(csvLine(['=HYPERLINK("http://x","y")'])).toBe(`"'=HYPERLINK(""http://x"",""y"")"\r\n`);
  });

  it('keeps a cell with a formula after a semicolon in one quoted cell, its formula neutralised', () => {
    const line = csvLine(['a', "x;=cmd|' /C calc'!A0;y", 'b']);
    expect(line).toBe(`"a","x;'=cmd|' /C calc'!A0;y","b"\r\n`);
    expect(readRecord(line)).toEqual(['a', "x;'=cmd|' /C calc'!A0;y", 'b']);
    // Read by a spreadsheet that splits on semicolons (or commas) whatever the quotes, no part starts a formula.
    for (const part of line.replace(/\r\n$/, '').split(/[;,]/)) expect(part.replace(/^"/, '')).not.toMatch(/^[=+\-@\t\r]/);
  });

  it('writes numbers and booleans bare, empty values empty, dates and objects as quoted text', () => {
    expect(csvLine([-1, 2.5, true, false, null, undefined, new Date(0), { a: [1] }, NaN])).toBe(
      '-1,2.5,true,false,,,"1970-01-01T00:00:00.000Z","{""a"":[1]}",\r\n',
    );
  });

  it('csvLines gives what csvLine gives row by row', () => {
    const rows = [
      ['a', 1],
      ['=x;-y', null],
    ];
    expect(csvLines(rows)).toBe(rows.map((r) => csvLine(r)).join(''));
  });

  it('round-trips through a CSV parser', () => {
    const row = ['id-1', 'a, "b"\r\nc', '=cmd', 3];
    expect(readRecord(csvLine(row))).toEqual(['id-1', 'a, "b"\r\nc', "'=cmd", '3']);
    expect(readRecord(csvLine(['', 'x']))).toEqual(['', 'x']);
  });

  it('csvHeader uses the same rules', () => {
    expect(csvHeader(['id', 'after step', 'a,b'])).toBe('"id","after step","a,b"\r\n');
  });
});

describe('jsonlLine', () => {
  it('writes one line per value, escaping line breaks inside strings', () => {
    const line = jsonlLine({ text: 'a\nb\u2028c', n: 1 });
    expect(line).toBe('{"text":"a\\nb\u2028c","n":1}\n');
    expect(line.slice(0, -1).includes('\n')).toBe(false);
    expect(JSON.parse(line)).toEqual({ text: 'a\nb\u2028c', n: 1 });
  });

  it('refuses undefined', () => {
    expect(() => jsonlLine(undefined)).toThrow(TypeError);
  });
});
