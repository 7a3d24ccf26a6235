import { Button, Group, Paper, Text } from '@portico/kit';
import type { DocItem } from '../api/documents-api.js';
import type { BulkActions } from '../rules/selection.js';
import { MIXED_SELECTION } from '../rules/selection.js';
import { GuardedButton } from './Guarded.js';

/** The bulk actions on a selection of live items, in the bar's order. */
const LIVE_BULK_ACTIONS = [
  ['download', 'Download'],
  ['move', 'Move'],
  ['copy', 'Copy'],
  ['delete', 'Delete'],
] as const;

export type BulkKind = (typeof LIVE_BULK_ACTIONS)[number][0] | 'restore';

/**
 * The bar over a selection: the actions it allows (each disabled with its reason when it does not),
 * Restore for deleted items, nothing but a word when live and deleted items are mixed.
 */
export function BulkBar({
  selected,
  bulk,
  onAction,
  onClear,
}: {
  selected: DocItem[];
  bulk: BulkActions;
  onAction: (kind: BulkKind) => void;
  onClear: () => void;
}) {
  return (
    <Paper withBorder p="xs" data-testid="bulk-bar">
      <Group gap="xs">
        <Text size="sm" fw={600}>
          {selected.length} selected
        </Text>
        {bulk.mixed ? (
          <Text size="sm" c="dimmed">
            {MIXED_SELECTION}
          </Text>
        ) : (
          <>
            {selected.every((i) => !i.deleted_at)
              ? LIVE_BULK_ACTIONS.map(([kind, label]) => (
                  <BulkButton
                    key={kind}
                    label={label}
                    enabled={bulk[kind]}
                    reason={bulk.reasons[kind]}
                    onClick={() => onAction(kind)}
                  />
                ))
              : null}
            {bulk.restore ? <BulkButton label="Restore" enabled onClick={() => onAction('restore')} /> : null}
          </>
        )}
        <Button size="xs" variant="subtle" onClick={onClear}>
          Clear
        </Button>
      </Group>
    </Paper>
  );
}

function BulkButton({
  label,
  enabled,
  reason,
  onClick,
}: {
  label: string;
  enabled: boolean;
  reason?: string;
  onClick: () => void;
}) {
  return (
    <GuardedButton
      verdict={{ visible: true, enabled, reason }}
      size="xs"
      variant="light"
      onClick={onClick}
      color={label === 'Delete' ? 'red' : undefined}
    >
      {label}
    </GuardedButton>
  );
}
