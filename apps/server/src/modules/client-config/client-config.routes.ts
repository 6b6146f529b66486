import type { ClientConfig } from '@flashcards/shared/api-types';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config';

/** What the web app needs to know about this server's options. Never a secret. */
export function toClientConfig(config: Config): ClientConfig {
  return {
    google_client_id: config.googleClientId ?? null,
    ai_provider: config.ai.provider === 'offline' ? 'offline' : config.ai.model,
    payment_mode: config.payments.mode,
  };
}

export function clientConfigRoutes(app: FastifyInstance, config: Config): void {
  const body = toClientConfig(config);
  app.get('/api/config', async () => body);
}
