import type { Translate } from '../../src/shared/translate';

/** §9: spinner sizes. */
export const SPINNER_SIZES = ['xs', 'sm', 'md', 'lg', 'xl'] as const;
export type SpinnerSize = (typeof SPINNER_SIZES)[number];

/** The label comes from `label`, else from `t('common.loading')`. */
export type SpinnerProps = {
  readonly size?: SpinnerSize;
  readonly className?: string;
} & (
  | { readonly label: string; readonly t?: Translate }
  | { readonly t: Translate; readonly label?: string }
);

/** The spinning ring alone, hidden from assistive technology: for places that name the wait themselves. */
export function SpinnerGraphic({ size = 'md' }: { readonly size?: SpinnerSize }) {
  return <span className={`ui-spinner ui-spinner--${size}`} aria-hidden="true" />;
}

/** §9 Spinner: a polite status ("Loading") with a ring that spins unless motion is reduced. */
export function Spinner({ size = 'md', className, label, t }: SpinnerProps) {
  const text = label ?? t?.('common.loading') ?? '';
  return (
    <span
      role="status"
      aria-label={text}
      className={className ? `ui-spinner-status ${className}` : 'ui-spinner-status'}
    >
      <SpinnerGraphic size={size} />
      <span className="visually-hidden">{text}</span>
    </span>
  );
}
