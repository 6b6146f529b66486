import { buildOpenApiDocument, type OpenApiDocument } from './http/openapi';
import { authPaths } from './modules/auth/auth.schemas';
import { billingPaths } from './modules/billing/billing.schemas';
import { cardsPaths } from './modules/cards/cards.schemas';
import { clientConfigPaths } from './modules/client-config/client-config.schemas';
import { decksPaths } from './modules/decks/decks.schemas';
import { feedbackPaths } from './modules/feedback/feedback.schemas';
import { generationPaths } from './modules/generation/generation.schemas';
import { healthPaths } from './modules/health/health.schemas';
import { interopPaths } from './modules/interop/interop.schemas';
import { quizPaths } from './modules/quiz/quiz.schemas';
import { quotaPaths } from './modules/quota/quota.schemas';
import { reviewPaths } from './modules/review/review.schemas';
import { schedulingPaths } from './modules/scheduling/scheduling.schemas';
import { sharingPaths } from './modules/sharing/sharing.schemas';
import { statsPaths } from './modules/stats/stats.schemas';
import { answerCheckPaths } from './modules/study-modes/answer-check.schemas';
import { userSettingsPaths } from './modules/user-settings/user-settings.schemas';

/**
 * Every module's route descriptions, in the order docs/api.md reads. A new module adds its `xxxPaths` here; a new
 * route of an existing module adds an entry to its module's `xxxPaths` (AGENTS.md, "Adding an endpoint").
 */
export const apiPaths = [
  healthPaths,
  clientConfigPaths,
  authPaths,
  userSettingsPaths,
  decksPaths,
  cardsPaths,
  reviewPaths,
  answerCheckPaths,
  statsPaths,
  schedulingPaths,
  sharingPaths,
  generationPaths,
  quizPaths,
  interopPaths,
  quotaPaths,
  billingPaths,
  feedbackPaths,
];

/** The API version in the document; bump it when a response shape changes incompatibly. */
export const apiVersion = '1.0.0';

export const buildApiDocument = (): OpenApiDocument => buildOpenApiDocument(apiPaths, apiVersion);
