// The service's signed-in /collection page (its server-rendered HTML element for element: the same
// elements, classes, text and attributes), rendered per request as the service renders it.
import { connection } from 'next/server';
import { SiteFooter } from './site-footer';
import { SiteHeader } from './site-header';

/** What the service reads from the session and the store for the demo collector. */
async function loadAccount() {
  return {
    name: 'Casey Collector',
    email: 'collector@example.com',
    collectorsId: 100001,
    sessionCount: 1,
    continueTo: [
      { brand: 'psa', name: 'PSA', href: '/signin?b=psa&r=https%3A%2F%2Fdev.psacard.com%2F' },
      {
        brand: 'pcgs',
        name: 'PCGS',
        href: '/signin?b=pcgs&r=http%3A%2F%2Flocalhost%3A34219%2Fdemo%2Fbrand%2Fpcgs',
      },
      {
        brand: 'enterprise',
        name: 'Collectors Dealer Portal',
        href: '/signin?b=enterprise&r=http%3A%2F%2Flocalhost%3A34219%2Fdemo%2Fbrand%2Fenterprise',
      },
      {
        brand: 'powerpacks',
        name: 'Powerpacks',
        href: '/signin?b=powerpacks&r=https%3A%2F%2Fdev.powerpacks.com',
      },
    ],
  };
}

export default async function CollectionPage() {
  // Rendered for each request, never prerendered: the page is personal, and the nonce Next puts on
  // its scripts is per request (Next's Content Security Policy guide).
  await connection();
  const account = await loadAccount();
  return (
    <div id="root">
      <div className="shell">
        <SiteHeader />
        <main id="main" className="shell-main" tabIndex={-1}>
          <section className="account-summary" aria-labelledby="account-summary-title">
            <h1 id="account-summary-title">Your account</h1>
            <p>{`You are signed in with collector number ${account.collectorsId}.`}</p>
            <section className="account-summary__block" aria-labelledby="account-title">
              <h2 id="account-title">Account details</h2>
              <dl className="account-summary__facts">
                <div>
                  <dt>Name</dt>
                  <dd>{account.name}</dd>
                </div>
                <div>
                  <dt>Email</dt>
                  <dd>{account.email}</dd>
                </div>
                <div>
                  <dt>Collector number</dt>
                  <dd>{account.collectorsId}</dd>
                </div>
              </dl>
            </section>
            <section className="account-summary__block" aria-labelledby="factors-title">
              <h2 id="factors-title">Second factors</h2>
              <p>No second factor is set up yet.</p>
            </section>
            <section className="account-summary__block" aria-labelledby="sessions-title">
              <h2 id="sessions-title">Sessions</h2>
              <p>{`Signed in on ${account.sessionCount} device or site`}</p>
              <div className="account-summary-actions">
                <a
                  href="/account/sessions"
                  className="ui-button ui-button--lg ui-button--secondary"
                >
                  Manage your sessions
                </a>
                <a
                  href="/logout/collectorsid?b=psa"
                  className="ui-button ui-button--lg ui-button--secondary"
                >
                  Sign out
                </a>
              </div>
            </section>
            <nav className="account-summary__block" aria-labelledby="continue-title">
              <h2 id="continue-title">Continue to</h2>
              <ul className="account-summary__sites">
                {account.continueTo.map((site) => (
                  <li key={site.brand}>
                    <a
                      className="continue-card"
                      href={site.href}
                      aria-label={`Continue to ${site.name}, signed in`}
                    >
                      <span className="continue-card__name">{site.name}</span>
                      <span className="continue-card__arrow" aria-hidden="true">
                        →
                      </span>
                    </a>
                  </li>
                ))}
              </ul>
            </nav>
          </section>
        </main>
        <SiteFooter year={new Date().getFullYear()} />
        <div
          role="region"
          aria-label="Notifications (press F8 to move here)"
          tabIndex={-1}
          className="toast-region"
        >
          <ol className="toast-list" />
        </div>
      </div>
    </div>
  );
}
