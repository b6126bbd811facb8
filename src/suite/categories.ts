import type { ExactInt } from '../json/lossless.ts';

/** A categoryId as sent. */
export type CategoryId = ExactInt;

/**
 * Tried in turn when nothing else tells which categories exist (no --category-ids, none listed):
 * the first one taken (201) is known (tests/support/categories.ts).
 */
export const PROBE_CATEGORY_IDS: readonly CategoryId[] = [1, 2, 3, 0];
