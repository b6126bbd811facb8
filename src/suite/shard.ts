/**
 * How --shard i/n shares out one run's work (docs/sharding.md): a scenario marked
 * `shard: 'inputs'` runs in every shard, each taking every n-th input of its properties; any other
 * runs whole in one shard, chosen by its title.
 */
export interface Shard {
  /** 1-based. */
  index: number;
  count: number;
}

/** FNV-1a of a text: a stable 32-bit hash (seeds, shares). */
export function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** The shard (1-based) a scenario that is not split runs in. */
export function homeShard(title: string, count: number): number {
  return (fnv1a(title) % count) + 1;
}

/** Whether this shard runs the scenario: a split one everywhere, any other in its home shard only. */
export function runsHere(shard: Shard | undefined, title: string, split: boolean): boolean {
  return !shard || split || homeShard(title, shard.count) === shard.index;
}

/**
 * The positions of a property's inputs (edge examples first, then the drawn ones) this shard
 * takes: k with (k + offset) mod n = i - 1, the offset from `key` (scenario and property), so the
 * first inputs of the many small properties do not all fall to one shard.
 */
export function shareOf(total: number, shard: Shard, key: string): number[] {
  const offset = fnv1a(key) % shard.count;
  const mine: number[] = [];
  for (let k = (shard.index - 1 - offset + shard.count) % shard.count; k < total; k += shard.count) mine.push(k);
  return mine;
}

/** In a sharded run, what names a failure's shard: the run's seed with --shard i/n meets it again on one machine. */
export function shardReplay(config: { seed: number; shard?: Shard }): { seed?: number; shard?: string } {
  return config.shard && config.shard.count > 1 ? { seed: config.seed, shard: shardText(config.shard) } : {};
}

/** `2/4`, as --shard takes it. */
export function shardText(shard: Shard): string {
  return `${shard.index}/${shard.count}`;
}
