import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useReducer,
  useRef,
  type FocusEvent,
  type KeyboardEvent,
  type PointerEvent,
  type ReactNode,
} from 'react';
import type { Translate } from '../../../src/shared/translate';
import {
  createToast,
  EMPTY_TOAST_STATE,
  isDismissSwipe,
  isRegionHotkey,
  TOAST_REGION_HOTKEY,
  TOAST_REMOVE_DELAY_MS,
  toastReducer,
  visibleToasts,
  type Toast,
  type ToastInput,
  type ToastState,
} from './toast-queue';

export interface ToastApi {
  /** Every toast in the queue, newest first, dismissed ones included (see visibleToasts). */
  readonly toasts: readonly Toast[];
  /** Shows a toast (texts already translated) and returns its id. Call from handlers and effects. */
  readonly show: (toast: ToastInput) => string;
  /** Closes a toast (or all of them without an id); it is removed later (TOAST_REMOVE_DELAY_MS). */
  readonly dismiss: (id?: string) => void;
}

const ToastContext = createContext<ToastApi | null>(null);

/** The toast queue of the page; throws outside a ToastProvider (a wiring mistake, not a state). */
export function useToasts(): ToastApi {
  const api = useContext(ToastContext);
  if (!api) throw new Error('useToasts() must be used inside <ToastProvider>');
  return api;
}

export interface ToastProviderProps {
  readonly children?: ReactNode;
  /**
   * Toasts on screen from the first render, oldest first (so the last one is shown on top): notices
   * the server already knows about. Ids default to `toast-initial-<index>` so that the server and the
   * browser render the same markup.
   */
  readonly initialToasts?: readonly ToastInput[];
}

function initialState(inputs: readonly ToastInput[]): ToastState {
  return inputs.reduce(
    (state, input, index) =>
      toastReducer(state, { type: 'add', toast: createToast(input, `toast-initial-${index}`) }),
    EMPTY_TOAST_STATE,
  );
}

/** Holds the page's toast queue and the removal timers of dismissed toasts. */
export function ToastProvider({ children, initialToasts = [] }: ToastProviderProps) {
  const [state, dispatch] = useReducer(toastReducer, initialToasts, initialState);
  const nextId = useRef(0);
  const removalTimers = useRef(new Map<string, ReturnType<typeof setTimeout>>());

  // §4: a dismissed toast is removed after a very long delay; re-showing it cancels the removal.
  useEffect(() => {
    const timers = removalTimers.current;
    const dismissed = new Set(state.toasts.filter((t) => t.dismissed).map((t) => t.id));
    for (const [id, timer] of timers) {
      if (!dismissed.has(id)) {
        clearTimeout(timer);
        timers.delete(id);
      }
    }
    for (const id of dismissed) {
      if (!timers.has(id)) {
        timers.set(
          id,
          setTimeout(() => {
            timers.delete(id);
            dispatch({ type: 'remove', id });
          }, TOAST_REMOVE_DELAY_MS),
        );
      }
    }
  }, [state.toasts]);

  useEffect(() => {
    const timers = removalTimers.current;
    return () => {
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
    };
  }, []);

  const show = useCallback((input: ToastInput) => {
    nextId.current += 1;
    const toast = createToast(input, `toast-${nextId.current}`);
    dispatch({ type: 'add', toast });
    return toast.id;
  }, []);
  const dismiss = useCallback((id?: string) => dispatch({ type: 'dismiss', id }), []);
  const api = useMemo<ToastApi>(
    () => ({ toasts: state.toasts, show, dismiss }),
    [state.toasts, show, dismiss],
  );

  return <ToastContext.Provider value={api}>{children}</ToastContext.Provider>;
}

export interface ToastRegionProps {
  readonly t: Translate;
}

/**
 * §2/§9: the labelled region that holds the visible toasts, newest first. F8 anywhere on the page
 * moves focus to it when it holds a toast; from there Tab reaches each toast and its close button.
 */
export function ToastRegion({ t }: ToastRegionProps) {
  const { toasts, dismiss } = useToasts();
  const regionRef = useRef<HTMLDivElement>(null);
  const visible = visibleToasts({ toasts });

  useEffect(() => {
    function onKeyDown(event: globalThis.KeyboardEvent) {
      const region = regionRef.current;
      if (!isRegionHotkey(event) || !region?.querySelector('[data-toast-id]')) return;
      event.preventDefault();
      region.focus();
    }
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);

  // Closing the toast that holds focus would drop focus on <body>; keep it in the region instead.
  const close = useCallback(
    (id: string, element: HTMLElement | null) => {
      const hadFocus = element?.contains(document.activeElement) ?? false;
      dismiss(id);
      if (hadFocus) regionRef.current?.focus();
    },
    [dismiss],
  );

  return (
    <div
      ref={regionRef}
      role="region"
      aria-label={t('common.toasts.region', { hotkey: TOAST_REGION_HOTKEY })}
      tabIndex={-1}
      className="toast-region"
    >
      <ol className="toast-list">
        {visible.map((toast) => (
          <ToastItem key={toast.id} toast={toast} t={t} onClose={close} />
        ))}
      </ol>
    </div>
  );
}

interface ToastItemProps {
  readonly toast: Toast;
  readonly t: Translate;
  readonly onClose: (id: string, element: HTMLElement | null) => void;
}

type PauseReason = 'hover' | 'focus' | 'swipe';

function ToastItem({ toast, t, onClose }: ToastItemProps) {
  const itemRef = useRef<HTMLLIElement>(null);
  const close = useCallback(() => onClose(toast.id, itemRef.current), [onClose, toast.id]);
  const { pause, resume } = useAutoDismiss(toast, close);
  const swipe = useSwipeToDismiss(itemRef, close, pause, resume);

  const onKeyDown = (event: KeyboardEvent<HTMLLIElement>) => {
    if (event.key !== 'Escape') return;
    event.preventDefault();
    close();
  };
  const onBlur = (event: FocusEvent<HTMLLIElement>) => {
    // Focus moving between the toast and its close button is not leaving the toast.
    if (!event.currentTarget.contains(event.relatedTarget)) resume('focus');
  };

  return (
    <li
      ref={itemRef}
      className={`toast toast--${toast.variant}`}
      data-toast-id={toast.id}
      data-variant={toast.variant}
      tabIndex={0}
      onKeyDown={onKeyDown}
      onMouseEnter={() => pause('hover')}
      onMouseLeave={() => resume('hover')}
      onFocus={() => pause('focus')}
      onBlur={onBlur}
      {...swipe}
    >
      <div className="toast-body" role={toast.variant === 'danger' ? 'alert' : 'status'}>
        <span className="visually-hidden">{t(`common.toasts.variant.${toast.variant}`)}</span>
        {toast.title ? <p className="toast-title">{toast.title}</p> : null}
        <p className="toast-message">{toast.message}</p>
      </div>
      <button
        type="button"
        className="toast-close"
        aria-label={t('common.toasts.close')}
        onClick={close}
      >
        <span aria-hidden="true">×</span>
      </button>
    </li>
  );
}

/** The largest delay setTimeout honours (about 24.8 days); longer ones would fire at once. */
const MAX_TIMEOUT_MS = 2_147_483_647;

/**
 * §4: a toast closes by itself after its duration. The clock stops while any reason to pause holds
 * (hovered, focused, being swiped) and resumes with the time that was left. Re-showing a toast (a new
 * toast object) starts the clock again.
 */
function useAutoDismiss(toast: Toast, onTimeout: () => void) {
  const onTimeoutRef = useRef(onTimeout);
  useEffect(() => {
    onTimeoutRef.current = onTimeout;
  }, [onTimeout]);
  const clock = useRef({
    remaining: toast.duration,
    startedAt: 0,
    timer: undefined as ReturnType<typeof setTimeout> | undefined,
    reasons: new Set<PauseReason>(),
  });

  const start = useCallback(() => {
    const c = clock.current;
    if (c.timer !== undefined || c.reasons.size > 0 || c.remaining > MAX_TIMEOUT_MS) return;
    c.startedAt = Date.now();
    c.timer = setTimeout(() => onTimeoutRef.current(), Math.max(0, c.remaining));
  }, []);
  const stop = useCallback(() => {
    const c = clock.current;
    if (c.timer === undefined) return;
    clearTimeout(c.timer);
    c.timer = undefined;
    c.remaining -= Date.now() - c.startedAt;
  }, []);

  useEffect(() => {
    clock.current.remaining = toast.duration;
    start();
    return stop;
  }, [toast, start, stop]);

  const pause = useCallback(
    (reason: PauseReason) => {
      clock.current.reasons.add(reason);
      stop();
    },
    [stop],
  );
  const resume = useCallback(
    (reason: PauseReason) => {
      clock.current.reasons.delete(reason);
      start();
    },
    [start],
  );
  return { pause, resume };
}

/**
 * §4/§9: a right swipe of more than 50 px closes the toast. The toast follows the pointer through
 * element.style.transform, set from the handlers (the CSP forbids style attributes, not CSSOM), and
 * data-swipe="move" turns the CSS transition off while it follows.
 */
function useSwipeToDismiss(
  itemRef: { readonly current: HTMLLIElement | null },
  onDismiss: () => void,
  pause: (reason: PauseReason) => void,
  resume: (reason: PauseReason) => void,
) {
  const start = useRef<{ x: number; y: number; pointerId: number } | null>(null);

  const reset = useCallback(() => {
    const item = itemRef.current;
    start.current = null;
    if (item) {
      item.style.transform = '';
      delete item.dataset.swipe;
    }
    resume('swipe');
  }, [itemRef, resume]);

  return {
    onPointerDown: (event: PointerEvent<HTMLLIElement>) => {
      // The close button and links keep their own click; only the primary button or a touch swipes.
      if (event.button !== 0 || (event.target as Element).closest('button, a')) return;
      start.current = { x: event.clientX, y: event.clientY, pointerId: event.pointerId };
      event.currentTarget.setPointerCapture?.(event.pointerId);
      pause('swipe');
    },
    onPointerMove: (event: PointerEvent<HTMLLIElement>) => {
      const from = start.current;
      if (!from || from.pointerId !== event.pointerId) return;
      const dx = Math.max(0, event.clientX - from.x);
      event.currentTarget.dataset.swipe = 'move';
      event.currentTarget.style.transform = `translateX(${dx}px)`;
    },
    onPointerUp: (event: PointerEvent<HTMLLIElement>) => {
      const from = start.current;
      if (!from || from.pointerId !== event.pointerId) return;
      if (isDismissSwipe(event.clientX - from.x, event.clientY - from.y)) {
        // Left where the swipe let go: the toast is hidden on the next render.
        start.current = null;
        onDismiss();
      } else {
        reset();
      }
    },
    onPointerCancel: reset,
  };
}
