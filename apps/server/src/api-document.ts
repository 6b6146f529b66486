import { authPaths } from './modules/auth/auth.schemas';
import { billingPaths } from './modules/billing/billing.schemas';
import { cardsPaths } from './modules/cards/cards.schemas';
import { clientConfigPaths } from './modules/client-config/client-config.schemas';
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
import { userSettingsPaths } from './modules/user-settings/user-settings.schemas';

/** The modules whose routes do not declare their schemas yet; the document takes their paths from these tables. */
export const legacyApiPaths = [
  healthPaths,
  clientConfigPaths,
  authPaths,
  userSettingsPaths,
  cardsPaths,
  reviewPaths,
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
