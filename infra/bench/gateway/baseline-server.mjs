// The baseline: a bare Fastify endpoint that runs the same user query on the same database, with no
// gateway, no NATS and no service in between.
import Fastify from 'fastify';
import pg from 'pg';

const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const app = Fastify();
app.get('/current_user', async (request, reply) => {
  // The same row-level-security transaction the service runs: set the firm, read the user.
  const client = await pool.connect();
  let rows;
  try {
    await client.query('begin');
    await client.query(`select set_config('app.firm_id', $1, true)`, [request.headers['x-firm-id']]);
    ({ rows } = await client.query(
      'select * from users where firm_id = $1 and id = $2 and deleted_at is null',
      [request.headers['x-firm-id'], request.headers['x-user-id']],
    ));
    await client.query('commit');
  } finally {
    client.release();
  }
  if (!rows[0]) return reply.code(404).send({ error: 'Not found' });
  const { password_hash, ...user } = rows[0];
  return user;
});
app.get('/health', async () => ({ ok: true }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
process.once('SIGTERM', async () => {
  await app.close();
  await pool.end();
  process.exit(0);
});
