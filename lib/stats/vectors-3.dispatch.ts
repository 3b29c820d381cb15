/**
 * Test support for vectors-3.test.ts: computes, for one reference vector of `vectors-3.json`, an
 * object shaped like its `expected` field using only the public API, plus the reason of every null it
 * produced (keyed by the concrete path, e.g. `confusion.A[1]`). Unknown metrics throw, so a new kind
 * of vector fails until it is implemented.
 */
import { type Maybe, dawidSkene, digamma, mace } from './index';

export interface Vector3 {
  readonly name: string;
  readonly metric: string;
  readonly input: Readonly<Record<string, unknown>>;
  readonly expected: unknown;
  readonly tol: number;
  readonly rtol?: number;
  readonly null_reasons?: Readonly<Record<string, string>>;
  readonly source?: string;
  readonly note?: string;
}

export interface Computed {
  readonly actual: unknown;
  /** Reason of each null output, by concrete path. */
  readonly reasons: Record<string, string>;
}

/** Collects the reasons of undefined outputs while a result is turned into the vector's shape. */
class Out {
  readonly reasons: Record<string, string> = {};

  /** A `Maybe` value at `path`: its value, recording the reason when null. */
  s<T>(x: Maybe<T>, path: string): T | null {
    if (x.reason !== undefined) {
      this.reasons[path] = x.reason;
      return null;
    }
    return x.value;
  }
}

type Input = Readonly<Record<string, unknown>>;

function req<T>(input: Input, key: string): T {
  if (!(key in input)) throw new Error(`vector input lacks required field ${key}`);
  return input[key] as T;
}

type Triple = readonly [string, string, string];

function crowd(input: Input) {
  return {
    labels: req<string[]>(input, 'labels'),
    annotators: req<string[]>(input, 'annotators'),
    items: req<string[]>(input, 'items'),
    annotations: req<Triple[]>(input, 'annotations'),
  };
}

function emOptions(input: Input) {
  return { maxIter: req<number>(input, 'max_iter'), tol: req<number>(input, 'tol') };
}

function byName<T>(names: readonly string[], values: readonly T[]): Record<string, T> {
  return Object.fromEntries(names.map((n, j) => [n, values[j]]));
}

function dawidSkeneVector(input: Input, o: Out) {
  const data = crowd(input);
  const r = dawidSkene(data, emOptions(input));
  return {
    iterations: r.iterations,
    converged: r.converged,
    log_likelihood: r.logLikelihood,
    class_priors: r.classPriors,
    confusion: byName(
      data.annotators,
      r.confusion.map((rows, j) => rows.map((row, k) => o.s(row, `confusion.${data.annotators[j]}[${k}]`))),
    ),
    posteriors: r.posteriors,
    labels: r.labels.map((k) => data.labels[k]),
  };
}

function maceVector(input: Input, o: Out) {
  const data = crowd(input);
  const r = mace(data, { ...emOptions(input), alpha: req<number>(input, 'alpha'), beta: req<number>(input, 'beta') });
  const perAnnotator = <T>(values: ReadonlyArray<Maybe<T>>, key: string) =>
    byName(
      data.annotators,
      values.map((v, j) => o.s(v, `${key}.${data.annotators[j]}`)),
    );
  return {
    iterations: r.iterations,
    converged: r.converged,
    log_marginal_likelihood: r.logMarginalLikelihood,
    competence: perAnnotator(r.competence, 'competence'),
    spamming: perAnnotator(r.spamming, 'spamming'),
    strategy: perAnnotator(r.strategy, 'strategy'),
    posteriors: r.posteriors,
    entropy: r.entropy,
    labels: r.labels.map((k) => data.labels[k]),
  };
}

/** Computes a vector of vectors-3.json with the public API; throws on an unknown metric. */
export function computeVector3(vec: Vector3): Computed {
  const o = new Out();
  const input = vec.input;
  let actual: unknown;
  switch (vec.metric) {
    case 'dawid_skene':
      actual = dawidSkeneVector(input, o);
      break;
    case 'mace':
      actual = maceVector(input, o);
      break;
    case 'digamma':
      actual = { digamma: req<number[]>(input, 'x').map(digamma) };
      break;
    default:
      throw new Error(`no implementation for vector metric "${vec.metric}" (vector ${vec.name})`);
  }
  return { actual, reasons: o.reasons };
}
