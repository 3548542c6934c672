import { useEffect, type RefObject } from 'react';

/**
 * While `open`, a pointer press or a focus move outside `root` calls `onDismiss`: clicking elsewhere
 * or tabbing out of a dropdown closes it. Listens only after hydration (effects never run on the
 * server) and only while open.
 */
export function useDismiss(
  open: boolean,
  root: RefObject<HTMLElement | null>,
  onDismiss: () => void,
): void {
  useEffect(() => {
    if (!open) return undefined;
    const onOutside = (event: Event) => {
      const element = root.current;
      if (element && event.target instanceof Node && !element.contains(event.target)) onDismiss();
    };
    document.addEventListener('pointerdown', onOutside);
    document.addEventListener('focusin', onOutside);
    return () => {
      document.removeEventListener('pointerdown', onOutside);
      document.removeEventListener('focusin', onOutside);
    };
  }, [open, root, onDismiss]);
}
