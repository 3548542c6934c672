import type { AriaAttributes, MouseEvent, ReactNode } from 'react';

/** §9: button sizes, lg by default. */
export const BUTTON_SIZES = ['sm', 'md', 'lg'] as const;
export type ButtonSize = (typeof BUTTON_SIZES)[number];
/** §9: button variants, primary by default; any of them may also be destructive. */
export const BUTTON_VARIANTS = ['primary', 'secondary', 'link', 'neutrallink'] as const;
export type ButtonVariant = (typeof BUTTON_VARIANTS)[number];

export interface ButtonProps extends AriaAttributes {
  /** One string, or one element: adjacent text would make React emit `<!-- -->` markers. */
  readonly children: ReactNode;
  readonly size?: ButtonSize;
  readonly variant?: ButtonVariant;
  /** An action that deletes or cannot be undone: drawn in the danger colour. */
  readonly destructive?: boolean;
  /** Renders a link styled as a button instead of a <button>. */
  readonly href?: string;
  readonly target?: string;
  readonly rel?: string;
  /** Ignored with href. Defaults to "button", so a button inside a form never submits by accident. */
  readonly type?: 'button' | 'submit' | 'reset';
  readonly disabled?: boolean;
  readonly onClick?: (event: MouseEvent<HTMLButtonElement | HTMLAnchorElement>) => void;
  readonly id?: string;
  readonly name?: string;
  readonly value?: string;
  readonly form?: string;
  readonly title?: string;
  readonly className?: string;
}

/** The CSS classes of a button (client/styles/ui.css), for the rare element that is not a Button. */
export function buttonClassName({
  size = 'lg',
  variant = 'primary',
  destructive = false,
  className,
}: Pick<ButtonProps, 'size' | 'variant' | 'destructive' | 'className'>): string {
  return [
    'ui-button',
    `ui-button--${size}`,
    `ui-button--${variant}`,
    destructive ? 'ui-button--destructive' : '',
    className ?? '',
  ]
    .filter(Boolean)
    .join(' ');
}

/**
 * §9 Buttons: a <button type="button"> or, with href, an <a>. A disabled link has no href (it goes
 * nowhere) and says so with aria-disabled, since <a> has no disabled attribute.
 */
export function Button({
  children,
  size,
  variant,
  destructive,
  href,
  target,
  rel,
  type = 'button',
  disabled = false,
  onClick,
  className,
  name,
  value,
  form,
  ...rest
}: ButtonProps) {
  const classes = buttonClassName({ size, variant, destructive, className });
  if (href !== undefined) {
    if (disabled) {
      return (
        <a {...rest} role="link" aria-disabled="true" className={classes}>
          {children}
        </a>
      );
    }
    return (
      <a {...rest} href={href} target={target} rel={rel} className={classes} onClick={onClick}>
        {children}
      </a>
    );
  }
  return (
    <button
      {...rest}
      type={type}
      name={name}
      value={value}
      form={form}
      disabled={disabled}
      className={classes}
      onClick={onClick}
    >
      {children}
    </button>
  );
}
