import { renderToString } from 'react-dom/server';
import type { Translate } from '../src/shared/translate';
import { MessagePage } from './MessagePage';
import type { PageFrameData } from './shell/shell-data';

const t: Translate = (key) => key;
const frame: PageFrameData = {
  brand: 'collectors',
  locale: 'en-US',
  env: 'local',
  services: {
    grading: 'https://dev.psacard.com',
    gradingJapan: 'https://dev.psacard.co.jp',
    cidRouter: 'https://dev-cid.collectors.com',
    powerpacks: 'https://dev.powerpacks.com',
  },
  currentPath: '/',
  year: 2026,
};

describe(MessagePage.name, () => {
  it('draws a link as its way on', () => {
    const html = renderToString(
      <MessagePage
        t={t}
        frame={frame}
        title="T"
        message="M"
        action={{ href: '/x', label: 'Go' }}
        alert={false}
      />,
    );
    expect(html).toContain('<a class="button primary message-action" href="/x">Go</a>');
    expect(html).not.toContain('<form');
  });

  it('draws a form posted to this service, with its hidden fields and one submit button (a sign-out to confirm)', () => {
    const html = renderToString(
      <MessagePage
        t={t}
        frame={frame}
        title="T"
        message="M"
        action={{
          post: '/logout/collectorsid?b=psa&lang=fr-CA',
          fields: { csrf: 'a"b' },
          label: 'Sign out',
        }}
        alert={false}
      />,
    );
    expect(html).toContain(
      '<form class="actions" action="/logout/collectorsid?b=psa&amp;lang=fr-CA" method="post">',
    );
    expect(html).toContain('<input type="hidden" name="csrf" value="a&quot;b"/>');
    expect(html).toContain('<button class="button primary" type="submit">Sign out</button>');
  });
});
