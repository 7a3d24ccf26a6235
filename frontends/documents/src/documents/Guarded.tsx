import { Tooltip } from '@portico/kit';
import type { ReactElement } from 'react';
import type { Verdict } from '../rules/capabilities.js';

/**
 * Shows an action per its verdict: nothing when hidden; when disabled, the control inside a tooltip
 * with the reason ('Disabled by firm'). A disabled button fires no pointer events, hence the span.
 */
export function Guarded({ verdict, children }: { verdict: Verdict; children: ReactElement }) {
  if (!verdict.visible) return null;
  if (verdict.enabled || !verdict.reason) return children;
  return (
    <Tooltip label={verdict.reason} withArrow>
      <span style={{ display: 'inline-block' }} data-disabled-reason={verdict.reason}>
        {children}
      </span>
    </Tooltip>
  );
}
