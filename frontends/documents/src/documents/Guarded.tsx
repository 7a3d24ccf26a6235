import { Button, type ButtonProps, Tooltip, VisuallyHidden } from '@portico/kit';
import { type ReactNode, useId } from 'react';
import type { Verdict } from '../rules/capabilities.js';

export type GuardedButtonProps = ButtonProps & {
  verdict: Verdict;
  onClick: () => void;
  children: ReactNode;
  'aria-label'?: string;
};

/**
 * A button per its verdict: nothing when hidden; refused with a reason ('Disabled by firm'), a button
 * that looks disabled and does nothing but still takes the focus, its reason read with it
 * (aria-describedby) and shown on hover and focus. A `disabled` button takes no focus, so a keyboard or
 * screen reader user never learnt why. Refused without a reason, or `disabled` meanwhile, it is disabled.
 */
export function GuardedButton({ verdict, onClick, disabled, children, ...props }: GuardedButtonProps) {
  const reasonId = useId();
  if (!verdict.visible) return null;
  if (verdict.enabled || !verdict.reason)
    return (
      <Button {...props} disabled={disabled || !verdict.enabled} onClick={onClick}>
        {children}
      </Button>
    );
  return (
    <>
      <Tooltip label={verdict.reason} withArrow events={{ hover: true, focus: true, touch: false }}>
        {/* Mantine's data-disabled: the disabled look without the attribute; no click handler. */}
        <Button {...props} data-disabled aria-disabled aria-describedby={reasonId}>
          {children}
        </Button>
      </Tooltip>
      <VisuallyHidden id={reasonId}>{verdict.reason}</VisuallyHidden>
    </>
  );
}
