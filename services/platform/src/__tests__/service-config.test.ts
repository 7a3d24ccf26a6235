import { describe, expect, it } from '@jest/globals';
import { ConfigError, loadConfig, serviceEnv } from '../config/env.js';

describe('MIGRATE_ON_START', () => {
  const migrateOnStart = (value?: string) =>
    loadConfig(
      { MIGRATE_ON_START: serviceEnv.MIGRATE_ON_START },
      value === undefined ? {} : { MIGRATE_ON_START: value },
    ).MIGRATE_ON_START;

  it('applies migrations at start unless told not to: unset or empty is true', () => {
    expect(migrateOnStart()).toBe(true);
    expect(migrateOnStart('')).toBe(true);
    expect(migrateOnStart('true')).toBe(true);
    expect(migrateOnStart('false')).toBe(false);
  });

  it('refuses anything but true or false, naming the variable', () => {
    expect(() => migrateOnStart('no')).toThrow(ConfigError);
    expect(() => migrateOnStart('0')).toThrow(/MIGRATE_ON_START/);
  });
});
