import type { ButtonHTMLAttributes, Ref } from 'react';

export type ButtonVariant = 'primary' | 'secondary' | 'danger' | 'danger-outline';

interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  /** `primary` is the plain `button` class; the others add `button--<variant>`. */
  variant?: ButtonVariant;
  small?: boolean;
  /** While true the button is disabled and shows `pendingLabel` (when given) instead of its children. */
  pending?: boolean;
  pendingLabel?: string;
  ref?: Ref<HTMLButtonElement>;
}

/** The app's button: `type="button"` unless told otherwise, the button classes, and a busy state for actions. */
export function Button({
  variant = 'primary',
  small = false,
  pending = false,
  pendingLabel,
  className,
  type = 'button',
  disabled,
  children,
  ...rest
}: ButtonProps) {
  const classes = ['button', variant === 'primary' ? '' : `button--${variant}`, small ? 'button--small' : '', className]
    .filter(Boolean)
    .join(' ');
  return (
    <button type={type} className={classes} disabled={pending || disabled} {...rest}>
      {pending && pendingLabel ? pendingLabel : children}
    </button>
  );
}
