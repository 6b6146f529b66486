import Fastify, { LogController } from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { lazyRequestLogger } from './request-logger';

const apps: ReturnType<typeof Fastify>[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

function appWithLog() {
  const lines: Record<string, unknown>[] = [];
  const app = Fastify({
    logger: { level: 'info', stream: { write: (line: string) => lines.push(JSON.parse(line)) } },
    childLoggerFactory: lazyRequestLogger,
    logController: new LogController({ disableRequestLogging: true }),
  });
  apps.push(app);
  app.get('/quiet', async () => ({ ok: true }));
  app.get('/talks', async (request) => {
    request.log.warn({ detail: 'x' }, 'something to say');
    request.log.info('and more');
    request.log.debug('below the level');
    return { level: request.log.level };
  });
  app.get('/nested', async (request) => {
    request.log.child({ part: 'inner' }).error('from a child');
    return {};
  });
  return { app, lines };
}

describe('request.log made on first use', () => {
  it('makes no child logger for a request that logs nothing', async () => {
    const { app } = appWithLog();
    await app.ready();
    const child = vi.spyOn(app.log, 'child');
    const response = await app.inject({ method: 'GET', url: '/quiet' });
    expect(response.statusCode).toBe(200);
    expect(child).not.toHaveBeenCalled();
  });

  it("writes a request's lines with its request id, at the logger's level, through one child", async () => {
    const { app, lines } = appWithLog();
    await app.ready();
    const child = vi.spyOn(app.log, 'child');
    const response = await app.inject({ method: 'GET', url: '/talks' });
    expect(response.json()).toEqual({ level: 'info' });
    expect(child).toHaveBeenCalledTimes(1);
    const said = lines.filter((line) => 'reqId' in line);
    expect(said.map((line) => [line.level, line.msg, line.detail])).toEqual([
      [40, 'something to say', 'x'],
      [30, 'and more', undefined],
    ]);
    expect(said[0]?.reqId).toBe(said[1]?.reqId);
    expect(typeof said[0]?.reqId).toBe('string');
  });

  it('makes children of its own with the request id too', async () => {
    const { app, lines } = appWithLog();
    const response = await app.inject({ method: 'GET', url: '/nested' });
    expect(response.statusCode).toBe(200);
    const line = lines.find((entry) => entry.msg === 'from a child');
    expect(line).toMatchObject({ level: 50, part: 'inner' });
    expect(typeof line?.reqId).toBe('string');
  });
});
