import { type InputHTMLAttributes, type ReactNode, type Ref, useId } from 'react';
import { cssVars } from './style.js';

// Without Mantine's `required` marker, `size` or root `className`/`style`: not taken.
export type TextInputProps = Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'size' | 'required' | 'className' | 'style' | 'color'
> & {
  label: ReactNode;
  /** The field's message, shown under it and tied to it (aria-invalid, aria-describedby). */
  error?: ReactNode;
  ref?: Ref<HTMLInputElement>;
};

/** Mantine's TextInput at its default size: the label, the input, and its error under it. */
export function TextInput({ label, error, id, ref, ...props }: TextInputProps) {
  const generated = `mantine-${useId().replaceAll(':', '')}`;
  const inputId = id ?? generated;
  const errorId = `${inputId}-error`;
  const invalid = Boolean(error) || undefined;
  const wrapperStyle = cssVars({
    ...(error ? { '--input-margin-bottom': 'calc(var(--mantine-spacing-xs) / 2)' } : {}),
    '--input-height': 'var(--input-height-sm)',
    '--input-fz': 'var(--mantine-font-size-sm)',
  });
  return (
    <div
      className="m_46b77525 mantine-InputWrapper-root mantine-TextInput-root"
      data-size="sm"
      data-error={invalid}
    >
      <label
        style={cssVars({ '--input-label-size': 'var(--mantine-font-size-sm)' })}
        className="m_8fdc1311 mantine-InputWrapper-label mantine-TextInput-label"
        data-size="sm"
        htmlFor={inputId}
        id={`${inputId}-label`}
      >
        {label}
      </label>
      <div
        style={wrapperStyle}
        className="m_6c018570 mantine-Input-wrapper mantine-TextInput-wrapper"
        data-variant="default"
        data-size="sm"
        data-error={invalid}
      >
        <input
          {...props}
          ref={ref}
          className="m_8fb7ebe7 mantine-Input-input mantine-TextInput-input"
          data-variant="default"
          data-error={invalid}
          aria-invalid={invalid}
          aria-describedby={error ? errorId : undefined}
          id={inputId}
        />
      </div>
      {error && (
        <p
          style={cssVars({
            '--input-error-size': 'calc(var(--mantine-font-size-sm) - calc(0.125rem * var(--mantine-scale)))',
          })}
          className="m_8f816625 mantine-InputWrapper-error mantine-TextInput-error"
          data-size="sm"
          id={errorId}
        >
          {error}
        </p>
      )}
    </div>
  );
}
