import type { ButtonHTMLAttributes, HTMLAttributes, ReactNode } from 'react';
import { cssVars, cx, type Native, type Size } from './style.js';

/** Mantine's Loader (the oval, drawn by the stylesheet); named spinners are a status, as the kit's theme says. */
export function Loader({
  size = 'md',
  className,
  ...props
}: Native<HTMLAttributes<HTMLSpanElement>> & { size?: Size }) {
  return (
    <span
      role="status"
      {...props}
      style={cssVars({ '--loader-size': `var(--loader-size-${size})` })}
      className={cx('m_b34414df m_5ae2e3c mantine-Loader-root', className)}
      data-size={size}
    />
  );
}

// The variants the sign-in uses, in the firm's colour (the theme's primary, 'firm').
const VARIANT_VARS = {
  filled: { '--button-color': 'var(--mantine-color-white)' },
  light: {
    '--button-bg': 'var(--mantine-color-firm-light)',
    '--button-hover': 'var(--mantine-color-firm-light-hover)',
    '--button-color': 'var(--mantine-color-firm-light-color)',
    '--button-bd': 'calc(0.0625rem * var(--mantine-scale)) solid transparent',
  },
  subtle: {
    '--button-bg': 'transparent',
    '--button-hover': 'var(--mantine-color-firm-light-hover)',
    '--button-color': 'var(--mantine-color-firm-light-color)',
    '--button-bd': 'calc(0.0625rem * var(--mantine-scale)) solid transparent',
  },
} as const;

// Where Mantine's transition leaves the loader once shown.
const LOADER_STYLE = {
  transitionProperty: 'transform, opacity',
  WebkitBackfaceVisibility: 'hidden',
  transitionDuration: '150ms',
  transitionTimingFunction: 'ease',
  transformOrigin: 'center',
  opacity: 1,
  transform: 'translate(-50%, calc(-50% + calc(0.0625rem * var(--mantine-scale))))',
} as const;

/**
 * Mantine's Button: `loading` disables it and shows the spinner over its label, `fullWidth` fills the
 * row.
 */
export function Button({
  variant = 'filled',
  loading = false,
  fullWidth,
  disabled,
  type = 'button',
  className,
  children,
  ...props
}: Native<ButtonHTMLAttributes<HTMLButtonElement>> & {
  variant?: keyof typeof VARIANT_VARS;
  loading?: boolean;
  fullWidth?: boolean;
  children?: ReactNode;
}) {
  const inactive = Boolean(disabled || loading);
  return (
    <button
      {...props}
      type={type}
      disabled={inactive}
      style={cssVars(VARIANT_VARS[variant])}
      className={cx(
        'mantine-focus-auto',
        !inactive && 'mantine-active',
        'm_77c9d27d mantine-Button-root m_87cf2631 mantine-UnstyledButton-root',
        className,
      )}
      data-variant={variant === 'filled' ? undefined : variant}
      data-disabled={disabled || undefined}
      data-loading={loading || undefined}
      data-block={fullWidth || undefined}
    >
      {loading && (
        <span style={LOADER_STYLE} className="m_a25b86ee mantine-Button-loader" aria-hidden="true">
          <span
            style={cssVars({
              '--loader-size': 'calc(var(--button-height) / 1.8)',
              '--loader-color': 'var(--button-color)',
            })}
            className="m_b34414df m_5ae2e3c mantine-Loader-root"
            role="status"
          />
        </span>
      )}
      <span className="m_80f1301b mantine-Button-inner">
        <span className="m_811560b9 mantine-Button-label" data-loading={loading || undefined}>
          {children}
        </span>
      </span>
    </button>
  );
}
