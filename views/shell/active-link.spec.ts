import fc from 'fast-check';
import { isActiveLink, linkPath } from './active-link';

describe(isActiveLink.name, () => {
  // [href, currentPath, prefix, active]: §2 "A link is compared with the current path optionally as a
  // prefix match. A link containing an absolute address is compared by its path only."
  const table: ReadonlyArray<readonly [string, string, boolean, boolean]> = [
    // exact match
    ['/collection', '/collection', false, true],
    ['/collection', '/collection/', false, true],
    ['/collection/', '/collection', false, true],
    ['/collection', '/collection?tab=vault', false, true],
    ['/collection', '/collection#top', false, true],
    ['/collection?tab=vault', '/collection', false, true],
    ['/collection', '/collections', false, false],
    ['/collection', '/collection/vault', false, false],
    ['/collection', '/Collection', false, false],
    ['/', '/', false, true],
    ['/', '/collection', false, false],
    ['/a/./b/../c', '/a/c', false, true],
    // prefix match, on segment boundaries only
    ['/support', '/support/tickets/12', true, true],
    ['/support', '/support', true, true],
    ['/support', '/supporters', true, false],
    ['/support/', '/support/tickets', true, true],
    ['/support/tickets', '/support', true, false],
    ['/', '/collection', true, false],
    // absolute addresses: compared by their path only
    ['https://www.psacard.com/support', '/support', false, true],
    ['https://www.psacard.com/support', '/support/faq', true, true],
    ['https://www.psacard.com/support', '/support/faq', false, false],
    ['https://www.psacard.com/fr-CA/about', '/fr-CA/about', false, true],
    ['https://www.psacard.com/', '/', false, true],
    ['https://www.psacard.com', '/', false, true],
    ['https://privacy.collectors.com/?lang=fr-CA', '/', false, true],
    ['//www.psacard.com/faq', '/faq', false, true],
    ['/faq', 'https://this.example/faq?x=1', false, true],
    // links that point at no page
    ['', '/', false, false],
    ['#main', '/', false, false],
    ['?tab=1', '/', false, false],
    ['mailto:help@psacard.com', '/', true, false],
    ['tel:+18005551234', '/', true, false],
  ];

  it.each(table)('%s on %s (prefix %s) is active: %s', (href, currentPath, prefix, active) => {
    expect(isActiveLink(href, currentPath, { prefix })).toBe(active);
  });

  it('matches exactly when no options are given', () => {
    expect(isActiveLink('/support', '/support/faq')).toBe(false);
  });

  const segment = fc.stringMatching(/^[a-z0-9-]{1,8}$/);
  const path = fc.array(segment, { minLength: 0, maxLength: 4 }).map((s) => `/${s.join('/')}`);
  const origin = fc.constantFrom(
    'https://www.psacard.com',
    'https://dev.psacard.co.jp',
    'http://localhost:3333',
    'https://privacy.collectors.com',
  );
  const query = fc.constantFrom('', '?lang=fr-CA', '?a=1&b=2', '#top');

  it('compares an absolute URL exactly as its path (property)', () => {
    fc.assert(
      fc.property(origin, path, path, fc.boolean(), (o, linkPathPart, current, prefix) => {
        expect(isActiveLink(`${o}${linkPathPart}`, current, { prefix })).toBe(
          isActiveLink(linkPathPart, current, { prefix }),
        );
      }),
    );
  });

  it('ignores the query and fragment of either side (property)', () => {
    fc.assert(
      fc.property(path, path, query, query, fc.boolean(), (link, current, q1, q2, prefix) => {
        expect(isActiveLink(`${link}${q1}`, `${current}${q2}`, { prefix })).toBe(
          isActiveLink(link, current, { prefix }),
        );
      }),
    );
  });

  it('finds every page active for its own link, and prefix matching only widens (property)', () => {
    fc.assert(
      fc.property(path, path, (link, current) => {
        expect(isActiveLink(link, link)).toBe(true);
        if (isActiveLink(link, current))
          expect(isActiveLink(link, current, { prefix: true })).toBe(true);
      }),
    );
  });

  it('finds a non-root link active, as a prefix, on every page below it (property)', () => {
    fc.assert(
      fc.property(path, fc.array(segment, { minLength: 1, maxLength: 3 }), (link, below) => {
        const current = `${link === '/' ? '' : link}/${below.join('/')}`;
        expect(isActiveLink(link, current, { prefix: true })).toBe(link !== '/');
      }),
    );
  });
});

describe(linkPath.name, () => {
  it.each([
    ['https://www.psacard.com/fr-CA/about?x=1#y', '/fr-CA/about'],
    ['/a//', '/a'],
    ['/', '/'],
    ['/caf%C3%A9', '/caf%C3%A9'],
    ['/café', '/caf%C3%A9'],
    ['mailto:a@b.c', undefined],
    ['#x', undefined],
  ])('%s has path %s', (href, path) => {
    expect(linkPath(href)).toBe(path);
  });
});
