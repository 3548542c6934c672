import {
  createToast,
  EMPTY_TOAST_STATE,
  isDismissSwipe,
  isRegionHotkey,
  TOAST_DURATION_MS,
  TOAST_LIMIT,
  TOAST_REMOVE_DELAY_MS,
  toastReducer,
  visibleToasts,
  type Toast,
  type ToastState,
} from './toast-queue';

const toast = (id: string, dismissed = false): Toast => ({
  ...createToast({ message: `message ${id}` }, id),
  dismissed,
});
const state = (...toasts: Toast[]): ToastState => ({ toasts });
const ids = (s: ToastState) => s.toasts.map((t) => (t.dismissed ? `${t.id}(dismissed)` : t.id));

describe('toast queue (§4 Other "Toast", §9 Toasts)', () => {
  describe(createToast.name, () => {
    it.each([
      ['nothing but a message', { message: 'Saved' }, 'promotion', TOAST_DURATION_MS],
      ['a variant', { message: 'Saved', variant: 'success' as const }, 'success', 5000],
      ['a duration', { message: 'Saved', duration: 10_000 }, 'promotion', 10_000],
      ['Infinity (stays open)', { message: 'Saved', duration: Infinity }, 'promotion', Infinity],
      ['a negative duration', { message: 'Saved', duration: -1 }, 'promotion', 5000],
      ['NaN as the duration', { message: 'Saved', duration: NaN }, 'promotion', 5000],
    ])('given %s: variant %s, duration %s ms', (_, input, variant, duration) => {
      expect(createToast(input, 'toast-1')).toEqual({
        id: 'toast-1',
        message: 'Saved',
        variant,
        duration,
        dismissed: false,
      });
    });

    it("keeps the caller's id and title", () => {
      expect(
        createToast({ id: 'saved', title: 'Done', message: 'Saved' }, 'toast-9'),
      ).toMatchObject({ id: 'saved', title: 'Done' });
    });

    it('defaults to 5000 ms, promotion, and a removal delay of 1,000,000 ms', () => {
      expect([TOAST_DURATION_MS, TOAST_LIMIT, TOAST_REMOVE_DELAY_MS]).toEqual([5000, 5, 1_000_000]);
    });
  });

  describe(toastReducer.name, () => {
    const table: [string, ToastState, Parameters<typeof toastReducer>[1], string[]][] = [
      ['add to an empty queue', EMPTY_TOAST_STATE, { type: 'add', toast: toast('a') }, ['a']],
      [
        'add puts the newest first',
        state(toast('a')),
        { type: 'add', toast: toast('b') },
        ['b', 'a'],
      ],
      [
        'add beyond 5 drops the oldest',
        state(toast('e'), toast('d'), toast('c'), toast('b'), toast('a')),
        { type: 'add', toast: toast('f') },
        ['f', 'e', 'd', 'c', 'b'],
      ],
      [
        'add beyond 5 drops a dismissed toast before a visible one',
        state(toast('e'), toast('d', true), toast('c'), toast('b'), toast('a')),
        { type: 'add', toast: toast('f') },
        ['f', 'e', 'c', 'b', 'a'],
      ],
      [
        'add beyond 5 drops the oldest dismissed toast first',
        state(toast('e', true), toast('d'), toast('c', true), toast('b'), toast('a')),
        { type: 'add', toast: toast('f') },
        ['f', 'e(dismissed)', 'd', 'b', 'a'],
      ],
      [
        'add with a known id replaces it and brings it back on top',
        state(toast('b'), toast('a', true)),
        { type: 'add', toast: toast('a') },
        ['a', 'b'],
      ],
      [
        'dismiss hides one toast but keeps it',
        state(toast('b'), toast('a')),
        { type: 'dismiss', id: 'a' },
        ['b', 'a(dismissed)'],
      ],
      [
        'dismiss without an id hides all',
        state(toast('b'), toast('a')),
        { type: 'dismiss' },
        ['b(dismissed)', 'a(dismissed)'],
      ],
      [
        'dismiss of an unknown id changes nothing',
        state(toast('a')),
        { type: 'dismiss', id: 'x' },
        ['a'],
      ],
      [
        'remove drops one toast',
        state(toast('b'), toast('a', true)),
        { type: 'remove', id: 'a' },
        ['b'],
      ],
      [
        'remove without an id empties the queue',
        state(toast('b'), toast('a')),
        { type: 'remove' },
        [],
      ],
    ];

    it.each(table)('%s', (_, before, action, after) => {
      expect(ids(toastReducer(before, action))).toEqual(after);
    });

    it('never keeps more than 5, however many are added', () => {
      let s = EMPTY_TOAST_STATE;
      for (let i = 0; i < 12; i += 1) s = toastReducer(s, { type: 'add', toast: toast(`t${i}`) });
      expect(ids(s)).toEqual(['t11', 't10', 't9', 't8', 't7']);
    });

    it('does not change the state it was given', () => {
      const before = state(toast('a'));
      toastReducer(before, { type: 'dismiss', id: 'a' });
      expect(before.toasts[0]?.dismissed).toBe(false);
    });
  });

  it(`${visibleToasts.name} leaves out dismissed toasts`, () => {
    expect(visibleToasts(state(toast('c'), toast('b', true), toast('a'))).map((t) => t.id)).toEqual(
      ['c', 'a'],
    );
  });

  describe(isDismissSwipe.name, () => {
    it.each([
      [0, 0, false],
      [50, 0, false], // exactly the threshold is not past it
      [50.5, 0, true],
      [51, 0, true],
      [300, 0, true],
      [-51, 0, false], // left never dismisses
      [-300, 0, false],
      [60, 80, false], // mostly vertical: a scroll, not a swipe
      [60, -80, false],
      [80, 60, true],
      [NaN, 0, false],
    ])('dx %p, dy %p -> %p', (dx, dy, expected) => {
      expect(isDismissSwipe(dx, dy)).toBe(expected);
    });
  });

  describe(isRegionHotkey.name, () => {
    const none = { altKey: false, ctrlKey: false, metaKey: false, shiftKey: false };
    it.each([
      ['F8', none, true],
      ['F7', none, false],
      ['F8', { ...none, ctrlKey: true }, false],
      ['F8', { ...none, altKey: true }, false],
      ['F8', { ...none, metaKey: true }, false],
      ['F8', { ...none, shiftKey: true }, false],
    ])('%s %p -> %p', (key, modifiers, expected) => {
      expect(isRegionHotkey({ key, ...modifiers })).toBe(expected);
    });
  });
});
