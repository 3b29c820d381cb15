import { addPairwiseCases } from './hostile-corpus-pairwise';
import fs from 'node:fs';
import path from 'node:path';

/*
 * A corpus of hostile import files, generated into a directory at test time (nothing big is committed).
 * Each case says which importer it targets and exactly which problems a correct importer reports:
 * line number, field path, and — where the wording matters — a pattern for the message.
 *
 * `stage: 'record'` problems are found by the line reader and the zod schemas alone (lib/io/records.ts);
 * `stage: 'import'` problems need the study: duplicates across lines, ids already stored, unknown items and
 * criteria, account names. lib/io/hostile.test.ts checks the first kind, lib/server/imports/hostile-import.test.ts both.
 */

export type Target = 'flow' | 'mathdial' | 'pairwise' | 'annotations' | 'judge';
export type ExpectedError = { line: number; path: string; stage: 'record' | 'import'; message?: RegExp };
export type HostileCase = {
  name: string;
  target: Target;
  file: string;
  bytes: number;
  /** The problems, in report order. Empty with `noRecords` for files that hold no record at all. */
  errors: ExpectedError[];
  /** Refused as "The file has no records." rather than line by line. */
  noRecords?: boolean;
  /** Large enough that memory use is checked. */
  big?: boolean;
  /** A run name passed to the judge importer. */
  judgeName?: string;
};

/** Items the pairwise study holds before the hostile files are tried (see pairwiseBase). */
export const PAIRWISE_BASE_IDS = ['pw-1', 'pw-2'] as const;
/** Flows the flow study holds before the hostile files are tried (see flowBase). */
export const FLOW_BASE_IDS = ['flow-base-1', 'flow-base-2'] as const;

export const E = (line: number, path: string, stage: ExpectedError['stage'] = 'record', message?: RegExp): ExpectedError => ({
  line,
  path,
  stage,
  message,
});

export function flow(id: string, extra: Record<string, unknown> = {}) {
  return {
    id,
    problem: { text: `What is 3 × 4? (${id})`, solution: '12', answer: '12' },
    materials: [{ id: 'M1', kind: 'follow_up', text: 'What is 4 × 3?' }],
    steps: [
      { speaker: 'tutor', text: 'How would you start?', principles: ['Questioning'], materials: ['M1'] },
      { speaker: 'student', text: 'Add 3 four times.' },
    ],
    ...extra,
  };
}

export function pair(id: string, extra: Record<string, unknown> = {}) {
  return {
    id,
    problem: `Lena reads 15 pages a day (${id}).`,
    principles: ['Practice'],
    history: [{ role: 'tutor', text: 'How would you start?' }],
    a: { source: 'model-x', text: 'Try 180 ÷ 15.' },
    b: { source: 'reference', text: 'Count equal groups.' },
    ...extra,
  };
}

export const j = (v: unknown) => JSON.stringify(v);
export const lines = (...ls: (string | object)[]) => ls.map((l) => (typeof l === 'string' ? l : j(l))).join('\n') + '\n';

export function flowBase() {
  return lines(...FLOW_BASE_IDS.map((id) => flow(id)));
}
export function pairwiseBase() {
  return lines(pair('pw-1'), pair('pw-2', { principles: ['Questioning'] }));
}

function mathdial(qid: number | string, extra: Record<string, unknown> = {}) {
  return {
    qid,
    question: 'Tom has 3 bags of 4 apples. How many apples?',
    ground_truth: '3 * 4 = 12 #### 12',
    student_incorrect_solution: '3 + 4 = 7',
    student_profile: 'Tom is a 5th grader.',
    teacher_described_confusion: 'adds instead of multiplying',
    conversation: 'Teacher: (probing) How did you get 7?|EOM|Student: I added.',
    ...extra,
  };
}

const MiB = 1024 * 1024;

/** Writes `totalBytes` of valid flow lines (about `lineBytes` each) with one bad line once `badAt` bytes are written, streamed. */
export function writeBigFlowFile(file: string, totalBytes: number, lineBytes: number, badAt: number) {
  const fd = fs.openSync(file, 'w');
  const filler = 'x'.repeat(lineBytes);
  let written = 0;
  let n = 0;
  let badLine = 0;
  try {
    const buffered: string[] = [];
    let bufferedBytes = 0;
    while (written < totalBytes) {
      n++;
      const isBad = badLine === 0 && written >= badAt;
      if (isBad) badLine = n;
      const f = flow(`big-${n}`, { tutor_persona: filler });
      if (isBad) (f.steps[1] as Record<string, unknown>).speaker = 'robot';
      const text = j(f) + '\n';
      buffered.push(text);
      bufferedBytes += text.length;
      written += text.length;
      if (bufferedBytes > 4 * MiB) {
        fs.writeSync(fd, buffered.join(''));
        buffered.length = 0;
        bufferedBytes = 0;
      }
    }
    if (buffered.length) fs.writeSync(fd, buffered.join(''));
  } finally {
    fs.closeSync(fd);
  }
  return { lines: n, badLine };
}

/** Writes one hostile file and records what it must produce. */
export type AddCase = (
  name: string,
  target: Target,
  content: string | Buffer,
  errors: ExpectedError[],
  extra?: Partial<HostileCase>,
) => void;

export type CorpusOptions = {
  /** Size of the streamed big file; 200 MB by default. */
  bigFileBytes?: number;
};

/** Generates every hostile file into `dir` and describes each one. */
export function generateHostileCorpus(dir: string, opts: CorpusOptions = {}): HostileCase[] {
  fs.mkdirSync(dir, { recursive: true });
  const cases: HostileCase[] = [];
  const add: AddCase = (name, target, content, errors, extra = {}) => {
    const file = path.join(dir, `${String(cases.length + 1).padStart(2, '0')}-${name}.jsonl`);
    fs.writeFileSync(file, content);
    cases.push({ name, target, file, bytes: fs.statSync(file).size, errors, ...extra });
  };
  const ok = (id: string, extra?: Record<string, unknown>) => flow(id, extra);

  /* ----- the reader: bytes, lines, JSON ----- */
  add('bad-json', 'flow', lines(ok('a'), '{"id": "b", "problem": {"text": "p"}, steps: []}', ok('c')), [
    E(2, '', 'record', /line is not valid JSON/),
  ]);
  add('truncated-last-line', 'flow', lines(ok('a'), ok('b')) + j(ok('c')).slice(0, 40), [E(3, '', 'record', /not valid JSON/)]);
  add('trailing-comma', 'flow', lines(ok('a'), j(ok('b')).replace(/}$/, ',}')), [E(2, '', 'record', /not valid JSON/)]);
  add('two-objects-one-line', 'flow', lines(j(ok('a')) + j(ok('b'))), [E(1, '', 'record', /not valid JSON/)]);
  add(
    'invalid-utf8',
    'flow',
    Buffer.concat([Buffer.from(lines(ok('a'))), Buffer.from('{"id": "b\xff\xfe"}\n', 'latin1'), Buffer.from(lines(ok('c')))]),
    [E(2, '', 'record', /not valid UTF-8/)],
  );
  add(
    'overlong-utf8-and-surrogate',
    'flow',
    Buffer.concat([
      Buffer.from(lines(ok('a'))),
      Buffer.from([0x7b, 0x22, 0x69, 0x64, 0x22, 0x3a, 0x22, 0xc0, 0xaf, 0x22, 0x7d, 0x0a]), // {"id":"<overlong />"}
      Buffer.from([0x7b, 0x22, 0x69, 0x64, 0x22, 0x3a, 0x22, 0xed, 0xa0, 0x80, 0x22, 0x7d, 0x0a]), // {"id":"<lone surrogate>"}
    ]),
    [E(2, '', 'record', /not valid UTF-8/), E(3, '', 'record', /not valid UTF-8/)],
  );
  add('utf16le-with-bom', 'flow', Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(lines(ok('a'), ok('b')), 'utf16le')]), [
    // The BOM bytes FF FE, then the UTF-16 of '×' (D7 00), are invalid UTF-8; the last line is the NUL after the final LF.
    E(1, '', 'record', /not valid UTF-8/),
    E(2, '', 'record', /not valid UTF-8/),
    E(3, '', 'record', /not valid JSON/),
  ]);
  add('utf16be-no-bom', 'flow', Buffer.from(lines(ok('a')), 'utf16le').swap16(), [E(1, '', 'record', /not valid UTF-8/)]);
  add('raw-nul-in-string', 'flow', lines(ok('a'), j(ok('b')).replace('"b"', '"b\u0000"')), [E(2, '', 'record', /not valid JSON/)]);
  add('escaped-nul-in-id', 'flow', lines(ok('a'), ok('b\u0000c')), [E(2, 'id', 'record', /control characters/)]);
  add('bom-then-bad-line', 'flow', '\ufeff' + lines(ok('a'), ok('b', { steps: {} })), [E(2, 'steps', 'record', /must be an array/)]);
  add('bom-on-second-line', 'flow', lines(ok('a'), '\ufeff' + j(ok('b'))), [E(2, '', 'record', /not valid JSON/)]);
  add('crlf-bad-line-3', 'flow', lines(ok('a'), ok('b'), ok('c', { problem: {} })).replace(/\n/g, '\r\n'), [
    E(3, 'problem.text', 'record', /required/),
  ]);
  add('blank-lines-keep-numbering', 'flow', `\n\n${j(ok('a'))}\n   \n\t\n${j({ id: 'b' })}\n\n`, [
    E(6, 'problem', 'record', /required/),
    E(6, 'steps', 'record', /required/),
  ]);
  add('empty-file', 'flow', '', [], { noRecords: true });
  add('only-blank-lines', 'flow', '\n \n\t\r\n\n   \n', [], { noRecords: true });
  add('deeply-nested-unclosed', 'flow', lines(ok('a'), '['.repeat(100_000)), [E(2, '', 'record', /not valid JSON/)]);
  add(
    'deeply-nested-closed-in-text',
    'flow',
    lines(ok('a'), j(ok('b')).replace('"How would you start?"', '['.repeat(100_000) + ']'.repeat(100_000))),
    [E(2, 'steps[0].text', 'record', /must be a string/)],
  );
  add('deeply-nested-top-level', 'flow', lines('['.repeat(50_000) + ']'.repeat(50_000)), [E(1, '', 'record', /must be an object/)]);
  add(
    'huge-numbers',
    'flow',
    lines(
      j(ok('a', { materials: [{ id: 'M2', kind: 'error_analysis', student_solution: '7', first_error_step: '@HUGE@' }] })).replace(
        '"@HUGE@"',
        '1e400',
      ),
      j(ok('b')).replace('"id":"b"', '"id":123456789012345678901234567890'),
      j(ok('c')).replace('"answer":"12"', '"answer":-1e999'),
    ),
    [
      // 1e400 parses to Infinity; the message could say so (it reads "must be a number (got number)").
      E(1, 'materials[0].first_error_step', 'record', /must be a number/),
      E(2, 'id', 'record', /must be a string/),
      E(3, 'problem.answer', 'record', /must be a string or a number/),
    ],
  );

  /* ----- flows: the schema, field by field ----- */
  add('id-as-number', 'flow', lines(ok('a'), { ...ok('b'), id: 42 }), [E(2, 'id', 'record', /must be a string \(got number\)/)]);
  add('steps-as-object', 'flow', lines(ok('a', { steps: { speaker: 'tutor', text: 'hi' } })), [
    E(1, 'steps', 'record', /must be an array/),
  ]);
  add(
    'speaker-unknown',
    'flow',
    lines(
      ok('a'),
      ok('b', {
        steps: [
          { speaker: 'tutor', text: 'x' },
          { speaker: 'teacher', text: 'y' },
        ],
      }),
    ),
    [E(2, 'steps[1].speaker', 'record', /tutor, student/)],
  );
  add(
    'text-empty-and-blank',
    'flow',
    lines(
      ok('a', {
        steps: [
          { speaker: 'tutor', text: '' },
          { speaker: 'student', text: '   ' },
        ],
      }),
    ),
    [E(1, 'steps[0].text', 'record', /non-empty/), E(1, 'steps[1].text', 'record', /non-empty/)],
  );
  add('principles-not-array', 'flow', lines(ok('a', { steps: [{ speaker: 'tutor', text: 'x', principles: 'Questioning' }] })), [
    E(1, 'steps[0].principles', 'record', /must be an array/),
  ]);
  add(
    'missing-required',
    'flow',
    lines({ problem: { text: 'p' } }, { id: 'b', steps: [{ speaker: 'tutor', text: 'x' }] }, { id: 'c', problem: { text: 'p' } }),
    [
      E(1, 'id', 'record', /required/),
      E(1, 'steps', 'record', /required/),
      E(2, 'problem', 'record', /required/),
      E(3, 'steps', 'record', /required/),
    ],
  );
  add('empty-steps-and-null-optional', 'flow', lines(ok('a', { steps: [] }), ok('b', { tutor_persona: null })), [
    E(1, 'steps', 'record', /at least one/),
    E(2, 'tutor_persona', 'record', /must be a string/),
  ]);
  add(
    'top-level-not-object',
    'flow',
    lines('[]', '"flow"', '42', 'null', 'true'),
    [1, 2, 3, 4, 5].map((n) => E(n, '', 'record', /must be an object/)),
  );
  add(
    'material-kind-unknown-and-duplicate',
    'flow',
    lines(
      ok('a', { materials: [{ id: 'M1', kind: 'cheat_sheet', text: 't' }] }),
      ok('b', {
        materials: [
          { id: 'M1', kind: 'follow_up', text: 't' },
          { id: 'M1', kind: 'similar_problem', text: 'u' },
        ],
      }),
    ),
    [E(1, 'materials[0].kind', 'record', /follow_up/), E(2, 'materials[1].id', 'record', /duplicates material id/)],
  );
  add('id-whitespace-and-too-long', 'flow', lines(ok(' padded'), ok('x'.repeat(201))), [
    E(1, 'id', 'record', /whitespace/),
    E(2, 'id', 'record', /at most 200/),
  ]);
  add('duplicate-id-in-file', 'flow', lines(ok('a'), ok('b'), ok('a', { problem: { text: 'other' } })), [
    E(3, 'id', 'import', /first on line 1/),
  ]);
  add('existing-id-different-content', 'flow', lines(ok('new-1'), flow(FLOW_BASE_IDS[0], { problem: { text: 'changed' } })), [
    E(2, 'id', 'import', /already exists .* different content/),
  ]);
  add(
    'prototype-keys',
    'flow',
    lines(
      j(ok('proto-a')).replace(/^\{/, '{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"polluted":"yes"}},'),
      j(ok('__proto__')),
      j(ok('constructor')),
      j(ok('__proto__', { problem: { text: 'second' } })),
    ),
    [E(4, 'id', 'import', /first on line 2/)],
  );
  add(
    'html-in-ids',
    'flow',
    lines(ok('<script>window.__xss=1</script>'), ok('"><img src=x onerror=alert(1)>'), ok('<script>window.__xss=1</script>')),
    [E(3, 'id', 'import', /"<script>window.__xss=1<\/script>" \(first on line 1\)/)],
  );

  /* ----- big files ----- */
  // A valid 5 MB line is accepted (well under the 16 MiB limit); the bad line after it is the only problem.
  add(
    'five-mb-line-valid',
    'flow',
    lines(ok('five-mb', { tutor_persona: 'p'.repeat(5 * 1000 * 1000) }), ok('b', { steps: 'none' })),
    [E(2, 'steps', 'record', /must be an array/)],
    { big: true },
  );
  // Over the limit: 17 MiB on line 2; reading goes on and finds line 3.
  add(
    'seventeen-mib-line',
    'flow',
    lines(ok('a'), ok('huge', { tutor_persona: 'p'.repeat(17 * MiB) }), ok('c', { id: 3 })),
    [E(2, '', 'record', /longer than the 16 MiB limit/), E(3, 'id', 'record', /must be a string/)],
    { big: true },
  );
  {
    const total = opts.bigFileBytes ?? 200 * 1000 * 1000;
    const file = path.join(dir, `${String(cases.length + 1).padStart(2, '0')}-two-hundred-mb.jsonl`);
    const { badLine } = writeBigFlowFile(file, total, 20_000, total - 100_000);
    cases.push({
      name: 'two-hundred-mb',
      target: 'flow',
      file,
      bytes: fs.statSync(file).size,
      errors: [E(badLine, 'steps[1].speaker', 'record')],
      big: true,
    });
  }

  /* ----- MathDial ----- */
  add('mathdial-bad-records', 'mathdial', lines(mathdial(1), mathdial(2, { conversation: '' }), mathdial(3.5), { qid: 4 }), [
    E(2, 'conversation', 'record', /non-empty/),
    E(3, 'qid', 'record'),
    E(4, 'question', 'record', /required/),
    E(4, 'ground_truth', 'record', /required/),
    E(4, 'student_incorrect_solution', 'record', /required/),
    E(4, 'student_profile', 'record', /required/),
    E(4, 'conversation', 'record', /required/),
  ]);

  addPairwiseCases(add);
  return cases;
}

export { hostileCatalogs } from './hostile-corpus-pairwise';
