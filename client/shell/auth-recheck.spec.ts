import { watchAuthMayHaveChanged, type RecheckWindow } from './auth-recheck';

/** A window and document made of plain EventTargets, with a settable visibility. */
function fakeWindow() {
  const doc = new EventTarget() as EventTarget & { visibilityState: DocumentVisibilityState };
  doc.visibilityState = 'visible';
  const win = new EventTarget() as EventTarget & { document: typeof doc };
  win.document = doc;
  const pageshow = (persisted: boolean) =>
    win.dispatchEvent(Object.assign(new Event('pageshow'), { persisted }));
  const visibility = (state: DocumentVisibilityState) => {
    doc.visibilityState = state;
    doc.dispatchEvent(new Event('visibilitychange'));
  };
  return { target: win as unknown as RecheckWindow, pageshow, visibility };
}

describe(watchAuthMayHaveChanged.name, () => {
  it.each([
    [
      'a page restored from the back-forward cache',
      (w: ReturnType<typeof fakeWindow>) => w.pageshow(true),
      1,
    ],
    [
      'a first page show (not from the cache)',
      (w: ReturnType<typeof fakeWindow>) => w.pageshow(false),
      0,
    ],
    ['the tab shown again', (w: ReturnType<typeof fakeWindow>) => w.visibility('visible'), 1],
    ['the tab hidden', (w: ReturnType<typeof fakeWindow>) => w.visibility('hidden'), 0],
  ])('§2: %s → %i re-check(s)', (_name, happen, calls) => {
    const w = fakeWindow();
    const listener = jest.fn();
    watchAuthMayHaveChanged(w.target, listener);
    happen(w);
    expect(listener).toHaveBeenCalledTimes(calls);
  });

  it('stops listening once unsubscribed', () => {
    const w = fakeWindow();
    const listener = jest.fn();
    const stop = watchAuthMayHaveChanged(w.target, listener);
    stop();
    w.pageshow(true);
    w.visibility('hidden');
    w.visibility('visible');
    expect(listener).not.toHaveBeenCalled();
  });
});
