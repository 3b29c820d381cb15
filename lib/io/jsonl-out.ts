/**
 * One JSON Lines record, with its `\n` terminator, ready to be written or
 * streamed. JSON.stringify escapes every raw line break inside strings, so a
 * record can never span two lines.
 */
export function jsonlLine(value: unknown): string {
  const text = JSON.stringify(value);
  if (text === undefined) throw new TypeError('cannot write undefined, a function or a symbol as a JSON line');
  return `${text}\n`;
}
