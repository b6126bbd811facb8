/** docs/fault-matrix.md holds the last full matrix between these markers; `npm run matrix` rewrites it. */
export const MATRIX_DOC = ['docs', 'fault-matrix.md'] as const;
const START = '<!-- matrix:start -->';
const END = '<!-- matrix:end -->';

/** The document with the text between its markers replaced by `table`; throws when the markers are missing. */
export function withMatrix(doc: string, table: string): string {
  const start = doc.indexOf(START);
  const end = doc.indexOf(END);
  if (start < 0 || end < start) throw new Error(`the page has no ${START} … ${END} pair to write the matrix into`);
  return `${doc.slice(0, start + START.length)}\n${table.trim()}\n${doc.slice(end)}`;
}
