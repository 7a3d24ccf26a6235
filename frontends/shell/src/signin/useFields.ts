import { type ChangeEvent, type SyntheticEvent, useRef, useState } from 'react';

type Values = Record<string, string>;
/** A field's rule: true when valid, else the message to show. */
export type Rule<T extends Values> = (value: string, values: T) => true | string;

/**
 * Small form state for the sign-in forms: messages appear on submit, then follow each change of a field
 * that was checked; the first invalid field takes the focus.
 */
export function useFields<T extends Values>(initial: T, rules: Partial<Record<keyof T, Rule<T>>>) {
  const [values, setValues] = useState<T>(initial);
  const [errors, setErrors] = useState<Partial<Record<keyof T, string>>>({});
  const submitted = useRef(false);
  const elements = useRef(new Map<keyof T, HTMLInputElement>());

  const check = (name: keyof T, all: T): string | undefined => {
    const result = rules[name]?.(all[name] ?? '', all);
    return typeof result === 'string' ? result : undefined;
  };

  const field = (name: keyof T) => ({
    name: String(name),
    value: values[name] ?? '',
    error: errors[name],
    ref: (el: HTMLInputElement | null) => {
      if (el) elements.current.set(name, el);
      else elements.current.delete(name);
    },
    onChange: (event: ChangeEvent<HTMLInputElement>) => {
      const next = { ...values, [name]: event.currentTarget.value };
      setValues(next);
      if (submitted.current) setErrors((e) => ({ ...e, [name]: check(name, next) }));
    },
  });

  const handleSubmit = (onValid: (values: T) => void) => (event?: SyntheticEvent) => {
    event?.preventDefault();
    submitted.current = true;
    const found: Partial<Record<keyof T, string>> = {};
    let first: keyof T | undefined;
    for (const name of Object.keys(rules) as (keyof T)[]) {
      found[name] = check(name, values);
      if (found[name] && first === undefined) first = name;
    }
    setErrors(found);
    if (first === undefined) onValid(values);
    else elements.current.get(first)?.focus();
  };

  return { values, field, handleSubmit };
}
