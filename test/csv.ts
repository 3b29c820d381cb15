/**
 * Reads CSV text (RFC 4180: quoted cells, doubled quotes, CRLF rows) into rows of cells, the way a spreadsheet
 * or a CSV library reads a download; for tests that check what an export says rather than how it is quoted.
 */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      }
      else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(cell);
      cell = '';
    } else if (ch === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    }
    else cell += ch;
  }
  if (cell || row.length) rows.push([...row, cell]);
  return rows;
}
