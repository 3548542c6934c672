import { STORAGE_KEYS_CLEARED_ON_SIGNOUT } from '../../views/shell/nudge/storage-keys';
import { clearSignedOutStorage, isSignoutLink } from './signout';

function memoryStorage(entries: Record<string, string>) {
  const map = new Map(Object.entries(entries));
  return { map, removeItem: (k: string) => void map.delete(k) };
}

describe('sign-out in the browser (§4 Sign-out step 3)', () => {
  it('clears every §3 key from both storages and leaves other keys', () => {
    const ours = Object.fromEntries(STORAGE_KEYS_CLEARED_ON_SIGNOUT.map((k) => [k, 'x']));
    const local = memoryStorage({ ...ours, 'sister-site-key': 'keep' });
    const session = memoryStorage({ 'redirect-params': '{"b":"psa"}', other: 'keep' });
    clearSignedOutStorage([local, session, undefined]);
    expect([...local.map.keys()]).toEqual(['sister-site-key']);
    expect([...session.map.keys()]).toEqual(['other']);
  });

  it('survives a storage that throws', () => {
    const refusing = {
      removeItem: () => {
        throw new Error('SecurityError');
      },
    };
    expect(() => clearSignedOutStorage([refusing])).not.toThrow();
  });

  it.each([
    ['/logout/collectorsid?b=psa', true],
    ['http://localhost:3333/logout/collectorsid', true],
    ['https://evil.example/logout/collectorsid', false],
    ['/logout/collectorsid/extra', false],
    ['/collection', false],
  ])('%s is a sign-out link: %s', (href, expected) => {
    expect(isSignoutLink(href, 'http://localhost:3333')).toBe(expected);
  });
});
