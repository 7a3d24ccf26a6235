import { type HTMLAttributes, type ReactNode, useId } from 'react';
import { type BoxProps, boxStyle, type Native, splitBox } from './style.js';

/** Mantine's Alert in its light variant, without a title: a coloured box around a message. */
export function Alert({
  color,
  children,
  ...props
}: BoxProps &
  Omit<Native<HTMLAttributes<HTMLDivElement>>, 'title' | 'className'> & {
    color: 'red' | 'teal';
    children?: ReactNode;
  }) {
  const [box, rest] = splitBox(props);
  const id = `mantine-${useId().replaceAll(':', '')}`;
  const vars = {
    '--alert-bg': `var(--mantine-color-${color}-light)`,
    '--alert-color': `var(--mantine-color-${color}-light-color)`,
    '--alert-bd': 'calc(0.0625rem * var(--mantine-scale)) solid transparent',
  };
  return (
    <div
      id={id}
      role="alert"
      {...rest}
      style={boxStyle(box, vars)}
      className="m_66836ed3 mantine-Alert-root"
      aria-describedby={`${id}-body`}
    >
      <div className="m_a5d60502 mantine-Alert-wrapper">
        <div className="m_667c2793 mantine-Alert-body">
          <div id={`${id}-body`} className="m_7fa78076 mantine-Alert-message">
            {children}
          </div>
        </div>
      </div>
    </div>
  );
}
