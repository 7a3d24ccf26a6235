import type pg from 'pg';

/** A statement as a service sent it: its text and parameters. */
export interface SentStatement {
  text: string;
  values: unknown[];
}

/** A node of a plan as `explain (format json)` gives it. */
export interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

/**
 * Records every statement the pool's connections send from now on, as sent (text and parameters), into
 * the array it answers (empty it before the code under test runs).
 */
export function recordStatements(pool: pg.Pool): SentStatement[] {
  const sent: SentStatement[] = [];
  pool.on('acquire', (client: pg.PoolClient & { recorded?: boolean }) => {
    if (client.recorded) return;
    client.recorded = true;
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as { query: unknown }).query = (...args: unknown[]) => {
      const [first, second] = args as [string | { text: string; values?: unknown[] }, unknown[]?];
      if (typeof first === 'string') sent.push({ text: first, values: second ?? [] });
      else if (first && typeof first === 'object')
        sent.push({ text: first.text, values: first.values ?? second ?? [] });
      return query(...args);
    };
  });
  return sent;
}

/**
 * The nodes of the plan PostgreSQL makes for the statement sent last whose text matches `pattern`, every
 * node of the tree, the top first. `settings` (e.g. `{ 'app.bypass_rls': 'on' }`) are set for the
 * transaction it is planned in, as the service ran it under row-level security; nothing is executed.
 */
export async function planOfLastSent(
  pool: pg.Pool,
  sent: readonly SentStatement[],
  pattern: RegExp,
  settings: Record<string, string> = {},
): Promise<PlanNode[]> {
  const statement = sent.findLast((s) => pattern.test(s.text));
  if (!statement) throw new Error(`No statement sent matches ${pattern}`);
  const client = await pool.connect();
  try {
    await client.query('begin');
    for (const [name, value] of Object.entries(settings))
      await client.query('select set_config($1, $2, true)', [name, value]);
    const { rows } = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
      `explain (format json) ${statement.text}`,
      statement.values,
    );
    return nodesOf((rows[0] as { 'QUERY PLAN': [{ Plan: PlanNode }] })['QUERY PLAN'][0].Plan);
  } finally {
    await client.query('rollback');
    client.release();
  }
}

const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];

/** The indexes a plan reads, in its order. */
export const indexesOf = (nodes: PlanNode[]): string[] =>
  nodes.flatMap((n) => (n['Index Name'] ? [n['Index Name']] : []));

/** The kinds of a plan's nodes ('Seq Scan', 'Sort', …), in its order. */
export const nodeTypesOf = (nodes: PlanNode[]): string[] => nodes.map((n) => n['Node Type']);
