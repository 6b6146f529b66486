import { authPaths } from './modules/auth/auth.schemas';
import { billingPaths } from './modules/billing/billing.schemas';
import { cardsPaths } from './modules/cards/cards.schemas';
import { generationPaths } from './modules/generation/generation.schemas';
import { interopPaths } from './modules/interop/interop.schemas';
import { reviewPaths } from './modules/review/review.schemas';

/** The modules whose routes do not declare their schemas yet; the document takes their paths from these tables. */
export const legacyApiPaths = [authPaths, cardsPaths, reviewPaths, generationPaths, interopPaths, billingPaths];
