import { STORAGE_KEYS_CLEARED_ON_SIGNOUT } from '../../views/shell/nudge/storage-keys';
import { clearSignedOutStorage, finishSignOut } from './signout';

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
});

describe(finishSignOut.name, () => {
  function run(props: Parameters<typeof finishSignOut>[0]) {
    const local = memoryStorage({ promptMfaSignin: 'false', 'sister-site-key': 'keep' });
    const steps: string[] = [];
    const events: unknown[] = [];
    finishSignOut(props, 'psa', {
      storages: [
        {
          removeItem: (k) => {
            if (!steps.includes('clear')) steps.push('clear');
            local.removeItem(k);
          },
        },
      ],
      track: (event) => {
        steps.push('track');
        events.push(event);
      },
      replaceLocation: (url) => steps.push(`go ${url}`),
    });
    return { local, steps, events };
  }

  it('clears, records the Logout event with the brand and collector, then goes on (steps 3-5)', () => {
    const { local, steps, events } = run({
      target: '/signin?b=psa&lang=fr-CA',
      signedOut: true,
      collectorsId: 100001,
    });
    expect(steps).toEqual(['clear', 'track', 'go /signin?b=psa&lang=fr-CA']);
    expect(events).toEqual([{ action: 'Logout', category: 'Auth', label: 'psa', user: 100001 }]);
    expect([...local.map.keys()]).toEqual(['sister-site-key']);
  });

  it('records no Logout event for a landing no sign-out led to, but still clears and goes on', () => {
    const { steps, events } = run({ target: '/signin', signedOut: false });
    expect(steps).toEqual(['clear', 'go /signin']);
    expect(events).toEqual([]);
  });
});
