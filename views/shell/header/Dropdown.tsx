import { useRef, type KeyboardEvent, type ReactNode } from 'react';
import { ChevronIcon } from './icons';
import { useDismiss } from './use-dismiss';

export interface DropdownProps {
  /** The panel's id, for aria-controls; unique in the page (the header is rendered once). */
  readonly id: string;
  readonly label: string;
  readonly open: boolean;
  readonly onToggle: () => void;
  readonly onClose: () => void;
  readonly className?: string;
  readonly children: ReactNode;
}

/**
 * A disclosure dropdown (WAI-ARIA APG "disclosure navigation menu"): a button with aria-expanded and
 * aria-controls, and a panel of ordinary links that follow it in tab order. Escape closes it and
 * returns focus to the button; a click or focus outside closes it. The panel stays in the markup
 * (hidden) so server and client render the same tree.
 */
export function Dropdown({
  id,
  label,
  open,
  onToggle,
  onClose,
  className,
  children,
}: DropdownProps) {
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  useDismiss(open, root, onClose);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'Escape' || !open) return;
    event.stopPropagation();
    onClose();
    button.current?.focus();
  };

  return (
    <div
      ref={root}
      className={className ? `site-header__dropdown ${className}` : 'site-header__dropdown'}
      onKeyDown={onKeyDown}
    >
      <button
        ref={button}
        type="button"
        className="site-header__dropdown-button"
        aria-expanded={open}
        aria-controls={id}
        onClick={onToggle}
      >
        <span>{label}</span>
        <ChevronIcon className="site-header__chevron" />
      </button>
      <div id={id} className="site-header__dropdown-panel" hidden={!open}>
        {open ? children : null}
      </div>
    </div>
  );
}
