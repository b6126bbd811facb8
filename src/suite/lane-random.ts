/** splitmix32's finaliser: a 32-bit value mixed so that neighbouring inputs give unrelated outputs. */
function mix32(value: number): number {
  let z = value | 0;
  z = Math.imul(z ^ (z >>> 16), 0x21f0aaad);
  z = Math.imul(z ^ (z >>> 15), 0x735a2d97);
  return (z ^ (z >>> 15)) | 0;
}

/**
 * fast-check's random generator for the sequences' lanes: xoshiro128** whose `jump` moves to the next
 * of many streams in constant time. fast-check jumps once per run it generates or skips, and each
 * lane starts at its own place in one stream of runs (fast-check's `path`), so with xorshift128+'s
 * jump (128 steps of the generator) the lanes of a run cost jumps in the square of --runs.
 */
export class LaneRandom {
  private state: [number, number, number, number] | undefined;

  private constructor(
    private readonly seed: number,
    private stream: number,
    state?: [number, number, number, number],
  ) {
    this.state = state;
  }

  static of(seed: number): LaneRandom {
    return new LaneRandom(seed | 0, 0);
  }

  /** The stream's four words, seeded from the seed and the stream's number (splitmix32 steps). */
  private words(): [number, number, number, number] {
    let z = mix32(this.seed ^ mix32(this.stream + 0x9e3779b9));
    const next = () => (z = mix32((z + 0x9e3779b9) | 0));
    const words: [number, number, number, number] = [next(), next(), next(), next()];
    // xoshiro's state must not be all zero.
    if (words.every((word) => word === 0)) words[0] = 1;
    return words;
  }

  next(): number {
    const s = (this.state ??= this.words());
    const result = Math.imul(rotl(Math.imul(s[1], 5), 7), 9);
    const t = s[1] << 9;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 11);
    return result | 0;
  }

  jump(): void {
    this.stream = (this.stream + 1) | 0;
    this.state = undefined;
  }

  clone(): LaneRandom {
    return new LaneRandom(this.seed, this.stream, this.state ? [...this.state] : undefined);
  }

  getState(): readonly number[] {
    return [this.seed, this.stream, ...(this.state ?? [])];
  }
}

const rotl = (x: number, k: number) => (x << k) | (x >>> (32 - k));
