/**
 * The toast queue as a pure reducer (§2 "Toasts and nudge", §4 Other "Toast", §9 Toasts). The
 * provider in Toasts.tsx owns the timers; everything here is data in, data out, so the rules can be
 * read and tested as a table.
 */

/** §2: promotion is the default variant. */
export const TOAST_VARIANTS = ['promotion', 'success', 'warning', 'danger'] as const;
export type ToastVariant = (typeof TOAST_VARIANTS)[number];
export const DEFAULT_TOAST_VARIANT: ToastVariant = 'promotion';

/** §9: a toast closes by itself after 5000 ms (paused while hovered or focused). */
export const TOAST_DURATION_MS = 5000;
/** §4/§9: at most 5 toasts are kept, newest first. */
export const TOAST_LIMIT = 5;
/**
 * §4: "Dismissed toasts are removed after a very long delay". A dismissed toast is hidden at once
 * and its entry stays in the queue for this long (1,000,000 ms, about 16.7 minutes: the value of
 * shadcn/ui's use-toast, which the behaviour follows) before it is removed. Re-showing a toast with
 * the same id within that window brings it back instead of stacking a copy.
 */
export const TOAST_REMOVE_DELAY_MS = 1_000_000;
/** §9: a swipe to the right of more than 50 px dismisses a toast. */
export const TOAST_SWIPE_THRESHOLD_PX = 50;
/** §9: F8 anywhere on the page moves focus to the toast region. */
export const TOAST_REGION_HOTKEY = 'F8';

/**
 * §8: the id of the toast a failed call shows. A page that reports the same failure in its own words
 * shows its toast under this id too, so one failure leaves one toast, not the network's and its own.
 */
export const FAILURE_TOAST_ID = 'network-error';

/** What a caller passes to show(): the texts are already translated. */
export interface ToastInput {
  /** Give an id to replace a toast already shown (e.g. "saved" shown twice); otherwise one is made. */
  readonly id?: string;
  readonly message: string;
  readonly title?: string;
  readonly variant?: ToastVariant;
  /** Milliseconds before it closes by itself; Infinity keeps it until the collector closes it. */
  readonly duration?: number;
}

export interface Toast {
  readonly id: string;
  readonly message: string;
  readonly title?: string;
  readonly variant: ToastVariant;
  readonly duration: number;
  /** Closed (timeout, close button, Escape, swipe): hidden, and removed after TOAST_REMOVE_DELAY_MS. */
  readonly dismissed: boolean;
}

export interface ToastState {
  /** Newest first. */
  readonly toasts: readonly Toast[];
}

export type ToastAction =
  | { readonly type: 'add'; readonly toast: Toast }
  /** Without an id: every toast. */
  | { readonly type: 'dismiss'; readonly id?: string }
  /** Without an id: every toast. */
  | { readonly type: 'remove'; readonly id?: string };

export const EMPTY_TOAST_STATE: ToastState = { toasts: [] };

/** Applies the defaults (§2 promotion, §9 5000 ms) to what a caller passed. */
export function createToast(input: ToastInput, id: string): Toast {
  const duration = input.duration ?? TOAST_DURATION_MS;
  return {
    id: input.id ?? id,
    message: input.message,
    ...(input.title === undefined ? {} : { title: input.title }),
    variant: input.variant ?? DEFAULT_TOAST_VARIANT,
    duration: Number.isNaN(duration) || duration < 0 ? TOAST_DURATION_MS : duration,
    dismissed: false,
  };
}

export function toastReducer(state: ToastState, action: ToastAction): ToastState {
  switch (action.type) {
    case 'add': {
      const others = state.toasts.filter((toast) => toast.id !== action.toast.id);
      return { toasts: keepWithinLimit([action.toast, ...others]) };
    }
    case 'dismiss':
      return {
        toasts: state.toasts.map((toast) =>
          action.id === undefined || toast.id === action.id ? { ...toast, dismissed: true } : toast,
        ),
      };
    case 'remove':
      return {
        toasts:
          action.id === undefined ? [] : state.toasts.filter((toast) => toast.id !== action.id),
      };
  }
}

/**
 * §4 "At most 5 are kept, newest first": over the limit, the oldest dismissed (already hidden) toast
 * goes first, then the oldest visible one, so the limit never hides a toast while a hidden one stays.
 */
function keepWithinLimit(toasts: readonly Toast[]): readonly Toast[] {
  const kept = [...toasts];
  while (kept.length > TOAST_LIMIT) {
    const oldestDismissed = kept.map((toast) => toast.dismissed).lastIndexOf(true);
    kept.splice(oldestDismissed === -1 ? kept.length - 1 : oldestDismissed, 1);
  }
  return kept;
}

/** The toasts on screen, newest first (at most TOAST_LIMIT). */
export function visibleToasts(state: ToastState): readonly Toast[] {
  return state.toasts.filter((toast) => !toast.dismissed);
}

/**
 * §9: true when a pointer moved more than 50 px to the right (and more sideways than up or down, so
 * that a vertical scroll gesture on a touch screen does not close a toast). Left swipes never dismiss.
 */
export function isDismissSwipe(dx: number, dy = 0): boolean {
  return dx > TOAST_SWIPE_THRESHOLD_PX && dx > Math.abs(dy);
}

/** §9: the region hotkey, F8 without modifiers (Ctrl+F8 and the like belong to the browser or OS). */
export function isRegionHotkey(event: {
  readonly key: string;
  readonly altKey: boolean;
  readonly ctrlKey: boolean;
  readonly metaKey: boolean;
  readonly shiftKey: boolean;
}): boolean {
  return (
    event.key === TOAST_REGION_HOTKEY &&
    !event.altKey &&
    !event.ctrlKey &&
    !event.metaKey &&
    !event.shiftKey
  );
}
