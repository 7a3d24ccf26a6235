import { Select, type SelectProps } from '@mantine/core';

export const INDIVIDUAL_ENTITY_TYPE = 'Individual';

export interface EntityTypeSelectProps extends Omit<SelectProps, 'data'> {
  /** The firm's entity types (GET /firms/current_user_firm, entity_types). */
  entityTypes: string[];
  /** When false, Individual shows as 'Individual (Not Allowed)' and cannot be chosen. */
  individualAllowed: boolean;
}

/** Entity type selector (spec 1 s.2.10). */
export function EntityTypeSelect({ entityTypes, individualAllowed, ...rest }: EntityTypeSelectProps) {
  const data = entityTypes.map((type) =>
    type === INDIVIDUAL_ENTITY_TYPE && !individualAllowed
      ? { value: type, label: 'Individual (Not Allowed)', disabled: true }
      : { value: type, label: type },
  );
  return <Select label="Entity Type" data={data} allowDeselect={false} {...rest} />;
}

export interface FirmGroupSelectProps extends Omit<SelectProps, 'data'> {
  groups: { id: string; name: string }[];
}

/** Firm group selector (spec 1 s.2.10); empty means no group. */
export function FirmGroupSelect({ groups, ...rest }: FirmGroupSelectProps) {
  return (
    <Select
      label="Firm Group"
      placeholder="No group"
      clearable
      data={groups.map((g) => ({ value: g.id, label: g.name }))}
      {...rest}
    />
  );
}
