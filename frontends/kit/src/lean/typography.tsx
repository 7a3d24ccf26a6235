import type { ButtonHTMLAttributes, HTMLAttributes, ReactNode, Ref } from 'react';
import { type BoxProps, boxStyle, cssVars, cx, type Native, type Size, splitBox } from './style.js';

/** Mantine's Text: a paragraph in the theme's font size and line height, or `size`'s. */
export function Text({
  size,
  className,
  ...props
}: BoxProps & Native<HTMLAttributes<HTMLParagraphElement>> & { size?: Size; children?: ReactNode }) {
  const [box, rest] = splitBox(props);
  const vars: Record<string, string> = size
    ? { '--text-fz': `var(--mantine-font-size-${size})`, '--text-lh': `var(--mantine-line-height-${size})` }
    : {};
  return (
    <p
      {...rest}
      style={boxStyle(box, vars)}
      className={cx('mantine-focus-auto m_b6d8b162 mantine-Text-root', className)}
      data-size={size}
    />
  );
}

/** Mantine's Title: a heading of `order`, in the size of heading `size` (its own by default). */
export function Title({
  order = 1,
  size,
  className,
  ref,
  ...props
}: BoxProps &
  Native<HTMLAttributes<HTMLHeadingElement>> & {
    order?: 1 | 2 | 3 | 4 | 5 | 6;
    size?: `h${1 | 2 | 3 | 4 | 5 | 6}`;
    ref?: Ref<HTMLHeadingElement>;
    children?: ReactNode;
  }) {
  const [box, rest] = splitBox(props);
  const heading = size ?? `h${order}`;
  const vars = {
    '--title-fw': `var(--mantine-${heading}-font-weight)`,
    '--title-lh': `var(--mantine-${heading}-line-height)`,
    '--title-fz': `var(--mantine-${heading}-font-size)`,
  };
  const Tag = `h${order}` as const;
  return (
    <Tag
      {...rest}
      ref={ref}
      style={boxStyle(box, vars)}
      className={cx('m_8a5d1357 mantine-Title-root', className)}
      data-size={size}
      data-order={order}
    />
  );
}

/** Mantine's Anchor as a button (`component="button"`): an action that reads as a link. */
export function Anchor({
  component: _button,
  size,
  className,
  ...props
}: Native<ButtonHTMLAttributes<HTMLButtonElement>> & {
  component: 'button';
  size?: Size;
  children?: ReactNode;
}) {
  const style = size
    ? cssVars({
        '--text-fz': `var(--mantine-font-size-${size})`,
        '--text-lh': `var(--mantine-line-height-${size})`,
      })
    : undefined;
  return (
    <button
      {...props}
      style={style}
      className={cx(
        'mantine-focus-auto m_849cf0da m_b6d8b162 mantine-Text-root mantine-Anchor-root',
        className,
      )}
      data-size={size}
      data-underline="hover"
    />
  );
}
