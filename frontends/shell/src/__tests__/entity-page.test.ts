import { describe, expect, it } from '@jest/globals';
import type { Entity } from '@portico/kit';
import { entityOfPath, samePageFor } from '../layouts/entity-page.js';

const entity = (hash_id: string, inactive = false) => ({ id: `id-${hash_id}`, hash_id, inactive }) as Entity;
const ENTITIES = [entity('t3V2NzZL'), entity('3qb_XJ2I'), entity('off-Hash', true)];

describe("a client's page of an entity", () => {
  it('names the entity whose hash is a segment of the path, among the active ones', () => {
    expect(entityOfPath('/documents/3qb_XJ2I', ENTITIES)?.id).toBe('id-3qb_XJ2I');
    expect(entityOfPath('/inbox/t3V2NzZL/conversation-9', ENTITIES)?.id).toBe('id-t3V2NzZL');
    expect(entityOfPath('/documents/off-Hash', ENTITIES)).toBeUndefined();
    expect(entityOfPath('/profile', ENTITIES)).toBeUndefined();
    expect(entityOfPath('/documents/3qb_XJ2', ENTITIES)).toBeUndefined();
  });

  it('is the same page for another entity, without what belonged to the first', () => {
    expect(samePageFor('/documents/t3V2NzZL', 't3V2NzZL', '3qb_XJ2I')).toBe('/documents/3qb_XJ2I');
    expect(samePageFor('/inbox/t3V2NzZL/conversation-9', 't3V2NzZL', '3qb_XJ2I')).toBe('/inbox/3qb_XJ2I');
    expect(samePageFor('/profile', 't3V2NzZL', '3qb_XJ2I')).toBeUndefined();
  });
});
