import type { CSSProperties } from 'react';

// Mantine's style props as its components write them into `style`, for the few the lean components take.

export type Size = 'xs' | 'sm' | 'md' | 'lg' | 'xl';
/** A theme size ('md') or a number of pixels (scaled as Mantine scales them). */
export type Length = Size | number;
/** A width or height: pixels, or the CSS forms Mantine passes through as they are. */
export type Extent = number | 'auto' | `${number}%` | `${number}vh`;
/** A colour: the dimmed text colour, or a CSS variable. Mantine's colour names are not resolved here. */
export type Colour = 'dimmed' | `var(--${string})`;
/**
 * The element's own attributes less those the lean components do not take: `style` and `color` (which
 * Mantine resolves and would reach the DOM here) and `className` where noted.
 */
export type Native<T> = Omit<T, 'style' | 'color'>;

/** Pixels as Mantine writes them: rem, times the theme's scale. */
export const rem = (px: number) => `calc(${px / 16}rem * var(--mantine-scale))`;

/** A spacing (padding, margin, gap): a theme size is the theme's spacing variable. */
export const spacing = (value: Length | 'auto') =>
  typeof value === 'number' ? rem(value) : value === 'auto' ? value : `var(--mantine-spacing-${value})`;

/** A width or height: numbers are pixels, strings are CSS as they are. */
export const length = (value: Extent) => (typeof value === 'number' ? rem(value) : value);

export const color = (value: Colour) => (value === 'dimmed' ? 'var(--mantine-color-dimmed)' : value);

export interface BoxProps {
  p?: Length;
  py?: Length;
  mt?: Length | 'auto';
  mx?: Length | 'auto';
  my?: Length | 'auto';
  w?: Extent;
  maw?: Extent;
  mah?: Extent;
  mih?: Extent;
  bg?: Colour;
  c?: Colour;
  fw?: number;
  ta?: CSSProperties['textAlign'];
}

/** The style of Mantine's style props, in its own order (variables of the component come first). */
export function boxStyle(props: BoxProps, vars: Record<string, string> = {}): CSSProperties | undefined {
  const style: Record<string, string | number> = { ...vars };
  if (props.mx !== undefined) style.marginInline = spacing(props.mx);
  if (props.my !== undefined) style.marginBlock = spacing(props.my);
  if (props.mt !== undefined) style.marginTop = spacing(props.mt);
  if (props.p !== undefined) style.padding = spacing(props.p);
  if (props.py !== undefined) style.paddingBlock = spacing(props.py);
  if (props.bg !== undefined) style.background = color(props.bg);
  if (props.c !== undefined) style.color = color(props.c);
  if (props.fw !== undefined) style.fontWeight = props.fw;
  if (props.ta !== undefined) style.textAlign = props.ta;
  if (props.w !== undefined) style.width = length(props.w);
  if (props.maw !== undefined) style.maxWidth = length(props.maw);
  if (props.mih !== undefined) style.minHeight = length(props.mih);
  if (props.mah !== undefined) style.maxHeight = length(props.mah);
  return Object.keys(style).length ? (style as CSSProperties) : undefined;
}

/** Splits the style props off the rest (the element's own attributes). */
export function splitBox<T extends BoxProps>(props: T): [BoxProps, Omit<T, keyof BoxProps>] {
  const { p, py, mt, mx, my, w, maw, mah, mih, bg, c, fw, ta, ...rest } = props;
  return [{ p, py, mt, mx, my, w, maw, mah, mih, bg, c, fw, ta }, rest];
}

export const cx = (...names: (string | false | undefined)[]) => names.filter(Boolean).join(' ');

/** CSS variables as a style (React's type knows no custom properties). */
export const cssVars = (vars: Record<string, string>) => vars as CSSProperties;
