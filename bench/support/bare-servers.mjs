// The two baselines of bench/http-overhead.bench.ts, each run as its own process:
//   node bare-servers.mjs bytes  SPEC_FILE   a bare Fastify route per path, sending the bytes ours sent
//   node bare-servers.mjs sql    SPEC_FILE   a bare Fastify route per path, running the SQL ours ran for it through
//                                            better-sqlite3 prepared statements (prepared once), then JSON of the rows
// SPEC_FILE (JSON): { dbFile, pragmas, routes: [{ method, path, body, statements: [{ sql, params, steps, freshIds }] }] }:
// params as one request had them; steps[i], how far a number moved from the request before (the nth replay adds n
// steps); freshIds, the indexes of ids the request generated.
// Prints "listening <url>" on stdout once it listens on a free loopback port.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import Fastify from 'fastify';

const [mode, specFile] = process.argv.slice(2);
const spec = JSON.parse(readFileSync(specFile, 'utf8'));
const app = Fastify({ logger: false });

if (mode === 'bytes') {
  for (const route of spec.routes) {
    app.route({
      method: route.method,
      url: route.path,
      handler: async (_request, reply) => reply.type('application/json; charset=utf-8').send(route.body),
    });
  }
} else {
  const db = new Database(spec.dbFile);
  // The server's own connection settings (database.ts, sqlitePragmas).
  for (const pragma of spec.pragmas) db.pragma(pragma);
  for (const route of spec.routes) {
    const statements = route.statements.map((statement) => ({
      ...statement,
      prepared: db.prepare(statement.sql),
      write: /^\s*(insert|update|delete)/i.test(statement.sql),
    }));
    const writes = statements.some((statement) => !statement.prepared.reader);
    let replays = 0;
    const runAll = () => {
      replays++;
      let rows = null;
      for (const statement of statements) {
        // Ids the original request generated (a new review-log row): a fresh one each time, as ours makes.
        const params = statement.params.map((value, index) =>
          statement.freshIds.includes(index)
            ? randomBytes(12).toString('hex')
            : statement.steps[index]
              ? value + replays * statement.steps[index]
              : value,
        );
        let written;
        if (statement.prepared.reader) {
          rows = statement.prepared.all(...params);
          written = rows.length;
        } else written = statement.prepared.run(...params).changes;
        // A write that wrote nothing (a stale guard) would make this floor cheaper than ours: answer 500, which the
        // bench reports.
        if (written === 0 && statement.write) throw new Error(`wrote nothing: ${statement.sql}`);
      }
      return rows;
    };
    const run = writes ? db.transaction(runAll) : runAll;
    app.route({
      method: route.method,
      url: route.path,
      handler: async (_request, reply) => reply.type('application/json; charset=utf-8').send(JSON.stringify(run())),
    });
  }
}

await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(`listening http://127.0.0.1:${app.server.address().port}\n`);
