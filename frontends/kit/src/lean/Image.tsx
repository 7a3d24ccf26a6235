import type { CSSProperties, ImgHTMLAttributes } from 'react';
import { type BoxProps, boxStyle, type Native, splitBox } from './style.js';

/** Mantine's Image: an img scaled by `fit` within its box. */
export function Image({
  fit = 'cover',
  ...props
}: BoxProps &
  Omit<Native<ImgHTMLAttributes<HTMLImageElement>>, 'className'> & { fit?: CSSProperties['objectFit'] }) {
  const [box, rest] = splitBox(props);
  return (
    // biome-ignore lint/a11y/useAltText: alt comes with the props, as it does for Mantine's Image
    <img
      {...rest}
      style={boxStyle(box, { '--image-object-fit': String(fit) })}
      className="m_9e117634 mantine-Image-root"
    />
  );
}
