import { describe, expect, it } from 'vitest';
import { configProblems, expectProblems } from '../test/support/config-env';
import { loadConfig } from './config';

describe('loadConfig', () => {
  it('has defaults that run the product offline', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      dataDir: './data',
      databaseUrl: undefined,
      publicUrl: 'http://localhost:3000',
      allowedOrigins: ['http://localhost:3000'],
      jwtSecret: undefined,
      tokenTtlMs: 7 * 24 * 3600 * 1000,
      googleClientId: undefined,
      logLevel: 'info',
      redisUrl: undefined,
      trustProxy: false,
      authRateLimit: { perIp: 100, perEmail: 10, windowMs: 15 * 60 * 1000 },
      ai: { provider: 'offline' },
      payments: { mode: 'test' },
    });
  });

  it('reads every setting it is given', () => {
    const config = loadConfig({
      PORT: '8080',
      HOST: '0.0.0.0',
      DATA_DIR: '/var/lib/cards',
      DATABASE_URL: 'postgres://app@db:5432/cards',
      PUBLIC_URL: 'https://cards.example.com/some/path',
      ALLOWED_ORIGINS: 'https://www.example.com, https://app.example.com/',
      JWT_SECRET: 'a'.repeat(40),
      TOKEN_TTL: '12h',
      GOOGLE_CLIENT_ID: 'abc.apps.googleusercontent.com',
      LOG_LEVEL: 'warn',
      LOG_BUFFER_MAX_BYTES: '1048576',
      REDIS_URL: 'redis://cache:6379',
      TRUST_PROXY: '2',
      PAYMENTS_MODE: 'test',
    });
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      dataDir: '/var/lib/cards',
      databaseUrl: 'postgres://app@db:5432/cards',
      publicUrl: 'https://cards.example.com',
      allowedOrigins: ['https://cards.example.com', 'https://www.example.com', 'https://app.example.com'],
      jwtSecret: 'a'.repeat(40),
      tokenTtlMs: 12 * 3600 * 1000,
      googleClientId: 'abc.apps.googleusercontent.com',
      logLevel: 'warn',
      logBufferMaxBytes: 1_048_576,
      redisUrl: 'redis://cache:6379',
      trustProxy: 2,
    });
    expect(loadConfig({ TOKEN_TTL: '3600' }).tokenTtlMs).toBe(3_600_000);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).trustProxy).toEqual(['10.0.0.0/8', '127.0.0.1']);
  });

  it('chooses the openai provider when an endpoint or key is given, and live payments with a Stripe key', () => {
    expect(loadConfig({ OPENAI_API_KEY: 'sk-x' }).ai.provider).toBe('openai');
    expect(loadConfig({ OPENAI_API_KEY: 'sk-x', AI_PROVIDER: 'offline' }).ai.provider).toBe('offline');
    expect(loadConfig({ STRIPE_SECRET_KEY: 'sk_test_x' }).payments.mode).toBe('live');
  });

  it('treats empty values as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: ' ', GOOGLE_CLIENT_ID: '' })).toMatchObject({
      port: 3000,
      databaseUrl: undefined,
      googleClientId: undefined,
    });
  });

  it('names the setting that is wrong', () => {
    expect(configProblems({ PORT: 'abc' })).toEqual(['PORT must be a whole number from 0 to 65535 (got "abc")']);
  });

  it('keeps at least 64 KiB of log lines for stdout, 16 MiB by default', () => {
    expect(loadConfig({}).logBufferMaxBytes).toBe(16_777_216);
    expect(configProblems({ LOG_BUFFER_MAX_BYTES: '4096' })).toEqual([
      'LOG_BUFFER_MAX_BYTES must be a whole number, 65536 or more (got "4096")',
    ]);
  });

  it('lists every bad setting at once, without echoing secrets', () => {
    const problems = expectProblems([
      ['PORT', '70000', 'PORT must be a whole number from 0 to 65535 (got "70000")'],
      [
        'DATABASE_URL',
        'mysql://root@db/cards',
        'DATABASE_URL must be a URL such as postgres://user:password@host:5432/db',
      ],
      [
        'PUBLIC_URL',
        'not a url',
        'PUBLIC_URL must be an http(s) origin such as https://cards.example.com (got "not a url")',
      ],
      ['JWT_SECRET', 'short-secret', 'JWT_SECRET must be at least 32 characters (or leave it unset to generate one)'],
      [
        'TOKEN_TTL',
        'forever',
        'TOKEN_TTL must be a duration such as 7d, 12h, 30m or a number of seconds (got "forever")',
      ],
      [
        'LOG_LEVEL',
        'loud',
        'LOG_LEVEL Invalid option: expected one of "fatal"|"error"|"warn"|"info"|"debug"|"trace"|"silent" (got "loud")',
      ],
    ]);
    expect(problems.join('\n')).not.toContain('short-secret');
    expect(problems.join('\n')).not.toContain('mysql://root');
    expect(() => loadConfig({ PORT: 'abc', LOG_LEVEL: 'loud' })).toThrow(/Invalid configuration:\n {2}- /);
  });

  it('refuses the openai provider without an endpoint or key', () => {
    expect(configProblems({ AI_PROVIDER: 'openai' })).toEqual([
      'AI_PROVIDER is "openai" but neither OPENAI_BASE_URL nor OPENAI_API_KEY is set (got "openai")',
    ]);
  });

  describe('payments mode (test mode only when asked for or on a local server)', () => {
    it('runs test mode on a local server: loopback HOST and an http PUBLIC_URL (or none)', () => {
      expect(loadConfig({}).payments.mode).toBe('test');
      expect(loadConfig({ HOST: '127.0.0.1', PUBLIC_URL: 'http://localhost:3000' }).payments.mode).toBe('test');
      expect(loadConfig({ HOST: '::1' }).payments.mode).toBe('test');
    });

    it('refuses to start without STRIPE_SECRET_KEY on a public host or an https PUBLIC_URL', () => {
      const envs: Record<string, string>[] = [{ HOST: '0.0.0.0' }, { PUBLIC_URL: 'https://cards.example.com' }];
      for (const env of envs) {
        const problems = configProblems(env);
        expect(problems).toHaveLength(1);
        expect(problems[0]).toMatch(/^STRIPE_SECRET_KEY is not set on a server that is not local/);
        expect(problems[0]).toContain('PAYMENTS_MODE=test');
      }
    });

    it('runs test mode anywhere with PAYMENTS_MODE=test, live mode with a key', () => {
      expect(loadConfig({ HOST: '0.0.0.0', PAYMENTS_MODE: 'test' }).payments.mode).toBe('test');
      expect(loadConfig({ HOST: '0.0.0.0', STRIPE_SECRET_KEY: 'sk_live_x' }).payments.mode).toBe('live');
      expect(configProblems({ PAYMENTS_MODE: 'live' })).toEqual([
        'PAYMENTS_MODE is "live" but STRIPE_SECRET_KEY is not set (got "live")',
      ]);
    });
  });

  it('reads the per-user limits, HSTS and the per-account login limit with their defaults', () => {
    const config = loadConfig({});
    expect(config.userLimits).toEqual({ maxDecks: 1000, maxCards: 200_000 });
    expect(config.hstsIncludeSubDomains).toBe(false);
    expect(config.authRateLimit.perAccount).toBe(100);
    expect(loadConfig({ AUTH_RATE_LIMIT_PER_EMAIL: '5' }).authRateLimit.perAccount).toBe(50);
    expect(loadConfig({ AUTH_RATE_LIMIT_PER_ACCOUNT: '7' }).authRateLimit.perAccount).toBe(7);
  });
});
