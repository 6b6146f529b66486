import { z } from 'zod';
import { typedAnswerSchema } from '../../http/request-schemas';

/** POST /cards/{id}/check: what the learner typed, 1 to 1,000 characters. */
export const answerCheckRequestSchema = z.object({ typed: typedAnswerSchema });
