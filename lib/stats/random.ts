/**
 * Seedable pseudo-random numbers for the bootstrap: xoshiro128** (Blackman & Vigna 2018), a
 * 32-bit generator with 128 bits of state, period 2^128 − 1, that passes BigCrush. It is small,
 * fast with `Math.imul`, and gives the same stream on every platform for the same seed, so a
 * stored seed reproduces an interval exactly. Not for cryptographic use.
 */

/** A stream of pseudo-random numbers. */
export interface Rng {
  /** Uniform integer in [0, 2^32). */
  nextUint32(): number;
  /** Uniform float in [0, 1) with 32 random bits. */
  nextFloat(): number;
  /** Uniform integer in [0, n), unbiased (rejection sampling), for 1 ≤ n ≤ 2^32. */
  nextInt(n: number): number;
}

const TWO32 = 4294967296;

/** MurmurHash3's 32-bit finaliser: a bijective mixer used to spread the seed over the state. */
function mix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/**
 * Creates a xoshiro128** generator from a non-negative integer seed (up to 2^53 − 1).
 * Formula: out = rotl(s1·5, 7)·9; t = s1 ≪ 9; s2 ^= s0; s3 ^= s1; s1 ^= s2; s0 ^= s3; s2 ^= t; s3 = rotl(s3, 11).
 * @see Blackman & Vigna (2018) "Scrambled linear pseudorandom number generators", ACM TOMS 47(4), 2021.
 */
export function createRng(seed: number): Rng {
  if (!Number.isSafeInteger(seed) || seed < 0) throw new RangeError(`seed must be a non-negative safe integer, got ${seed}`);
  const lo = seed >>> 0;
  const hi = Math.floor(seed / TWO32) >>> 0;
  const s = new Uint32Array(4);
  let x = lo;
  for (let k = 0; k < 4; k++) {
    x = (x + 0x9e3779b9) >>> 0;
    s[k] = mix32(x ^ mix32((hi + k) >>> 0));
  }
  if ((s[0] | s[1] | s[2] | s[3]) === 0) s[0] = 1;
  let s0 = s[0] | 0;
  let s1 = s[1] | 0;
  let s2 = s[2] | 0;
  let s3 = s[3] | 0;

  const nextUint32 = (): number => {
    const m = Math.imul(s1, 5);
    const result = Math.imul((m << 7) | (m >>> 25), 9) >>> 0;
    const t = s1 << 9;
    s2 ^= s0;
    s3 ^= s1;
    s1 ^= s2;
    s0 ^= s3;
    s2 ^= t;
    s3 = (s3 << 11) | (s3 >>> 21);
    return result;
  };
  return {
    nextUint32,
    nextFloat: () => nextUint32() / TWO32,
    nextInt: (n: number): number => {
      if (!(n >= 1 && n <= TWO32) || !Number.isInteger(n)) throw new RangeError(`nextInt needs an integer 1 ≤ n ≤ 2^32, got ${n}`);
      const limit = TWO32 - (TWO32 % n);
      let u = nextUint32();
      while (u >= limit) u = nextUint32();
      return u % n;
    },
  };
}
