import { generationPaths } from './modules/generation/generation.schemas';
import { interopPaths } from './modules/interop/interop.schemas';

/** The modules whose routes do not declare their schemas yet; the document takes their paths from these tables. */
export const legacyApiPaths = [generationPaths, interopPaths];
