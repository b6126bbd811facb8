/**
 * Headings of the service specification (`/work/shared/service-spec.md`), by section number.
 * The report model carries only the section number of a clause; the writers use this table to
 * name a section (`§4.1 List animals: GET /pets`). An unknown section is shown by its number.
 */
const SECTION_TITLES: Readonly<Record<string, string>> = {
  '1': 'What the service does',
  '2': 'Resources and their fields',
  '2.1': 'Animal (Pet) as returned',
  '2.2': 'Animal input (NewPet)',
  '2.3': 'List of animals (Pets)',
  '2.4': 'Error',
  '2.5': 'Gaps',
  '3': 'States and transitions',
  '4': 'Endpoints',
  '4.1': 'List animals: GET /pets',
  '4.2': 'Add an animal: POST /pets',
  '4.3': 'Get an animal: GET /pets/{petId} (deprecated)',
  '4.4': 'Store orders: GET /store/orders',
  '4.5': 'Quickstart message operation',
  '5': 'Authentication',
  '6': 'Events',
  '7': 'Errors',
  '8': 'Limits',
  '9': 'Versioning',
};

/** The heading text of a section, without its number; '' when unknown. */
export function sectionTitle(section: string): string {
  return SECTION_TITLES[section] ?? '';
}

/** `§4.1 List animals: GET /pets`, or `§4.1` for an unknown section. */
export function sectionLabel(section: string): string {
  const title = sectionTitle(section);
  return title ? `§${section} ${title}` : `§${section}`;
}

/** Orders section numbers naturally: 2.5 < 4.1 < 4.10 < 10; non-numeric parts compare as text. */
export function compareSections(a: string, b: string): number {
  const pa = a.split('.');
  const pb = b.split('.');
  const n = Math.max(pa.length, pb.length);
  for (let i = 0; i < n; i++) {
    const x = pa[i];
    const y = pb[i];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    const nx = /^\d+$/.test(x) ? Number(x) : NaN;
    const ny = /^\d+$/.test(y) ? Number(y) : NaN;
    if (!Number.isNaN(nx) && !Number.isNaN(ny)) {
      if (nx !== ny) return nx - ny;
    } else if (x !== y) {
      return x < y ? -1 : 1;
    }
  }
  return 0;
}
