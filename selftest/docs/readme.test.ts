import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PACKAGE_ROOT } from '../../src/paths.ts';

const pages = ['README.md', ...readdirSync(join(PACKAGE_ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];

describe('the README and docs/', () => {
  it.each(pages)('%s links only to files that exist', (page) => {
    const text = readFileSync(join(PACKAGE_ROOT, page), 'utf8');
    const targets = [...text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)].map((match) => match[1]!).filter((target) => !/^[a-z]+:/.test(target));
    expect(targets.filter((target) => !existsSync(join(PACKAGE_ROOT, dirname(page), target)))).toEqual([]);
  });

  it("show a proxy, a gateway header and a private CA in the README's \"Pointing it at a real deployment\"", () => {
    const readme = readFileSync(join(PACKAGE_ROOT, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Pointing it at a real deployment'), readme.indexOf('\n## ', readme.indexOf('## Pointing it at a real deployment') + 3));
    for (const setting of ['HTTPS_PROXY=', 'NO_PROXY=', 'EXTRA_HEADERS=', '--ca-file ']) expect(section).toContain(setting);
  });

  it('keep the README short: the details live in docs/', () => {
    expect(readFileSync(join(PACKAGE_ROOT, 'README.md'), 'utf8').split('\n').length).toBeLessThanOrEqual(250);
  });
});
