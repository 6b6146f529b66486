import type { ClientConfig } from '@flashcards/shared/api-types';
import type { Config } from '../../config';
import { clientConfigSchema } from '../../http/api-schemas';
import type { App } from '../../http/validation';

/** What the web app needs to know about this server's options. Never a secret. */
export function toClientConfig(config: Config): ClientConfig {
  return {
    google_client_id: config.googleClientId ?? null,
    ai_provider: config.ai.provider === 'offline' ? 'offline' : config.ai.model,
    payment_mode: config.payments.mode,
  };
}

/** docs/api.md, "Service". */
export function clientConfigRoutes(app: App, config: Config): void {
  const body = toClientConfig(config);
  app.get(
    '/api/config',
    {
      schema: {
        summary: 'What this server offers the web app (no secrets)',
        tags: ['Service'],
        response: { 200: clientConfigSchema },
      },
    },
    async () => body,
  );
}
