import type { CSSProperties, HTMLAttributes, ReactNode } from 'react';
import {
  type BoxProps,
  boxStyle,
  cx,
  type Length,
  type Native,
  rem,
  type Size,
  spacing,
  splitBox,
} from './style.js';

type DivProps = BoxProps & Native<HTMLAttributes<HTMLDivElement>> & { children?: ReactNode };

export function Center({
  component: Tag = 'div',
  className,
  ...props
}: DivProps & { component?: 'div' | 'main' }) {
  const [box, rest] = splitBox(props);
  return <Tag {...rest} style={boxStyle(box)} className={cx('m_4451eb3a mantine-Center-root', className)} />;
}

type FlexProps = DivProps & {
  gap?: Length;
  align?: CSSProperties['alignItems'];
  justify?: CSSProperties['justifyContent'];
};

/** Stack's and Group's style: a flex box whose gap, alignment and justification are its variables. */
function flexStyle(
  name: 'stack' | 'group',
  { gap = 'md', align, justify = 'flex-start', ...props }: Omit<FlexProps, 'className'>,
  extra: Record<string, string> = {},
) {
  const [box, rest] = splitBox(props);
  const vars = {
    [`--${name}-gap`]: spacing(gap),
    [`--${name}-align`]: String(align),
    [`--${name}-justify`]: String(justify),
    ...extra,
  };
  return [boxStyle(box, vars), rest] as const;
}

export function Stack({ className, ...props }: FlexProps) {
  const [style, rest] = flexStyle('stack', { align: 'stretch', ...props });
  return <div {...rest} style={style} className={cx('m_6d731127 mantine-Stack-root', className)} />;
}

export function Group({ className, ...props }: FlexProps) {
  const [style, rest] = flexStyle('group', { align: 'center', ...props }, { '--group-wrap': 'wrap' });
  return <div {...rest} style={style} className={cx('m_4081bf90 mantine-Group-root', className)} />;
}

export function Paper({
  withBorder,
  shadow,
  radius,
  className,
  ...props
}: DivProps & { withBorder?: boolean; shadow?: Size; radius?: Length }) {
  const [box, rest] = splitBox(props);
  const vars: Record<string, string> = {};
  if (radius !== undefined)
    vars['--paper-radius'] = typeof radius === 'number' ? rem(radius) : `var(--mantine-radius-${radius})`;
  if (shadow) vars['--paper-shadow'] = `var(--mantine-shadow-${shadow})`;
  return (
    <div
      {...rest}
      style={boxStyle(box, vars)}
      className={cx('m_1b7284a3 mantine-Paper-root', className)}
      data-with-border={withBorder || undefined}
    />
  );
}
