// Creates or drops a PostgreSQL database for one CI run: `node scripts/ci-database.mjs create|drop NAME`.
// Connects as the server's admin URL (PG_ADMIN_URL, default postgres://postgres@127.0.0.1:5432/postgres).
import pg from 'pg';

const [action, name] = process.argv.slice(2);
if (!['create', 'drop'].includes(action) || !/^[a-z_][a-z0-9_]*$/.test(name ?? '')) {
  console.error('usage: node scripts/ci-database.mjs create|drop NAME');
  process.exit(2);
}
const client = new pg.Client({
  connectionString: process.env.PG_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres',
});
await client.connect();
try {
  if (action === 'create') await client.query(`create database ${name}`);
  else await client.query(`drop database if exists ${name} with (force)`);
} finally {
  await client.end();
}
