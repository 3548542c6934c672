import { renderToString } from 'react-dom/server';
import enUS from '../../../locales/en-US/common.json';
import { createTranslate } from '../../../src/shared/translate';
import { ToastProvider, ToastRegion, useToasts } from './Toasts';
import type { ToastInput } from './toast-queue';

const t = createTranslate({ common: enUS });

function render(initialToasts: readonly ToastInput[] = []) {
  return renderToString(
    <ToastProvider initialToasts={initialToasts}>
      <ToastRegion t={t} />
    </ToastProvider>,
  );
}

describe(ToastRegion.name, () => {
  it('is a focusable region whose name tells the F8 hotkey, with an empty list', () => {
    expect(render()).toBe(
      '<div role="region" aria-label="Notifications (press F8 to move here)" tabindex="-1" ' +
        'class="toast-region"><ol class="toast-list"></ol></div>',
    );
  });

  it('shows each toast with its id, variant, a status and a close button', () => {
    const html = render([{ message: 'Your changes were saved.', variant: 'success' }]);
    expect(html).toContain(
      '<li class="toast toast--success" data-toast-id="toast-initial-0" data-variant="success" tabindex="0">',
    );
    expect(html).toContain('<div class="toast-body" role="status">');
    expect(html).toContain('<span class="visually-hidden">Success:</span>');
    expect(html).toContain('<p class="toast-message">Your changes were saved.</p>');
    expect(html).toContain(
      '<button type="button" class="toast-close" aria-label="Dismiss notification">',
    );
  });

  it('makes a danger toast an alert', () => {
    const html = render([{ message: 'Could not save.', variant: 'danger' }]);
    expect(html).toContain('role="alert"');
    expect(html).not.toContain('role="status"');
  });

  it('defaults to the promotion variant and shows an optional title', () => {
    const html = render([{ message: 'New grading tiers', title: 'News' }]);
    expect(html).toContain('data-variant="promotion"');
    expect(html).toContain('<p class="toast-title">News</p>');
  });

  it('lists the newest first and at most 5', () => {
    const html = render(
      ['1', '2', '3', '4', '5', '6', '7'].map((n) => ({ id: `n${n}`, message: `Toast ${n}` })),
    );
    const shown = [...html.matchAll(/data-toast-id="([^"]+)"/g)].map((m) => m[1]);
    expect(shown).toEqual(['n7', 'n6', 'n5', 'n4', 'n3']);
  });

  it('never emits text separators, so hydration sees the same nodes', () => {
    expect(render([{ message: 'Saved', title: 'Done', variant: 'warning' }])).not.toContain(
      '<!-- -->',
    );
  });
});

describe(useToasts.name, () => {
  it('throws outside a ToastProvider', () => {
    function Orphan() {
      useToasts();
      return null;
    }
    expect(() => renderToString(<Orphan />)).toThrow('inside <ToastProvider>');
  });

  it('gives the queue to any component inside the provider', () => {
    function Count() {
      return <p>{String(useToasts().toasts.length)}</p>;
    }
    expect(
      renderToString(
        <ToastProvider initialToasts={[{ message: 'a' }, { message: 'b' }]}>
          <Count />
        </ToastProvider>,
      ),
    ).toBe('<p>2</p>');
  });
});
