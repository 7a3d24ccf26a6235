import type { CSSProperties } from 'react';

// Mantine's style props as its components write them into `style`, for the few the lean components take.

export type Size = 'xs' | 'sm' | 'md' | 'lg' | 'xl';
/** A theme size ('md'), a number of pixels (scaled as Mantine scales them), or any CSS length. */
export type Length = Size | number | (string & {});

const SIZES = new Set<string>(['xs', 'sm', 'md', 'lg', 'xl']);

/** Pixels as Mantine writes them: rem, times the theme's scale. */
export const rem = (px: number) => `calc(${px / 16}rem * var(--mantine-scale))`;

/** A spacing (padding, margin, gap): a theme size is the theme's spacing variable. */
export function spacing(value: Length): string {
  if (typeof value === 'number') return rem(value);
  return SIZES.has(value) ? `var(--mantine-spacing-${value})` : value;
}

/** A width or height: numbers are pixels, strings are CSS as they are. */
export const length = (value: number | string) => (typeof value === 'number' ? rem(value) : value);

/** A colour: 'dimmed' and the theme's colour names are variables, anything else is CSS. */
export const color = (value: string) =>
  value === 'dimmed'
    ? 'var(--mantine-color-dimmed)'
    : /^[a-z]+(\.\d)?$/.test(value)
      ? `var(--mantine-color-${value.replace('.', '-')})`
      : value;

export interface BoxProps {
  p?: Length;
  py?: Length;
  mt?: Length;
  mx?: Length;
  my?: Length;
  w?: number | string;
  maw?: number | string;
  mah?: number | string;
  mih?: number | string;
  bg?: string;
  c?: string;
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
