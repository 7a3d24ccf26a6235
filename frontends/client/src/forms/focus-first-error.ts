import { useEffect } from 'react';
import type { FieldErrors, FieldValues, Path, UseFormSetFocus } from 'react-hook-form';

/**
 * After a failed save, refused by the rules or by identity: once its messages show, the first field in
 * error (in `fields`' order, the form's on screen) takes focus, so a screen reader reads the field with
 * its message (aria-invalid, aria-describedby). With none, `otherwise` (a field outside the form's
 * values, such as the current password). Runs once per submit and per refused save (`failure`).
 */
export function useFocusFirstError<T extends FieldValues>(
  fields: readonly Path<T>[],
  form: { submitCount: number; errors: FieldErrors<T>; setFocus: UseFormSetFocus<T> },
  failure: unknown,
  otherwise?: () => void,
): void {
  const { submitCount, errors, setFocus } = form;
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs once per submit and per refused save
  useEffect(() => {
    const first = fields.find((field) => errors[field]);
    if (first) setFocus(first);
    else otherwise?.();
  }, [submitCount, failure]);
}
