import { createHash } from 'node:crypto';

/**
 * Canonical JSON: the JSON.stringify value of `value` with every object's keys
 * sorted (by UTF-16 code units, so the order never depends on locale) and no
 * whitespace. Two values that JSON.stringify to the same data in any key order
 * give the same text, which is what makes contentHash() usable to tell a
 * re-import of identical content from a changed item.
 *
 * Follows JSON.stringify for everything else (toJSON, undefined properties
 * dropped, undefined array entries as null) except that it throws on values
 * JSON cannot represent faithfully: non-finite numbers, bigints and cycles.
 */
export function canonicalJson(value: unknown): string {
  const out = write(value, new Set());
  if (out === undefined) throw new TypeError('cannot canonicalise undefined, a function or a symbol');
  return out;
}

function write(value: unknown, ancestors: Set<object>): string | undefined {
  if (value !== null && typeof value === 'object' && typeof (value as { toJSON?: unknown }).toJSON === 'function') {
    value = (value as { toJSON: () => unknown }).toJSON();
  }
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return JSON.stringify(value);
    case 'number':
      if (!Number.isFinite(value)) throw new TypeError(`cannot canonicalise the number ${value}`);
      return JSON.stringify(value);
    case 'bigint':
      throw new TypeError('cannot canonicalise a bigint');
    case 'undefined':
    case 'function':
    case 'symbol':
      return undefined;
  }
  if (value === null) return 'null';
  const obj = value as object;
  if (ancestors.has(obj)) throw new TypeError('cannot canonicalise a value that contains itself');
  ancestors.add(obj);
  try {
    if (Array.isArray(obj)) {
      return `[${obj.map((v) => write(v, ancestors) ?? 'null').join(',')}]`;
    }
    const record = obj as Record<string, unknown>;
    const parts: string[] = [];
    for (const key of Object.keys(record).sort()) {
      const v = write(record[key], ancestors);
      if (v !== undefined) parts.push(`${JSON.stringify(key)}:${v}`);
    }
    return `{${parts.join(',')}}`;
  } finally {
    ancestors.delete(obj);
  }
}

/** SHA-256 (hex) of the UTF-8 canonical JSON of `value`. */
export function contentHash(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value), 'utf8').digest('hex');
}
