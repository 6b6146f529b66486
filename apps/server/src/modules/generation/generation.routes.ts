import { limits } from '@flashcards/shared/limits';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errors } from '../../http/app-error';
import { currentUser } from '../../http/authenticate';
import { readFormFields } from '../../http/form-fields';
import type { GenerationInput, GenerationService } from './generation.service';

// Multipart framing and the text field on top of the file itself.
const maxMultipartOverhead = 2 * 1024 * 1024;

/**
 * Reads `text` and `file` from a multipart form (a JSON or url-encoded body may carry `text` alone). The file is
 * streamed and reading stops at the size limit: nothing beyond it is ever buffered.
 */
async function readGenerationInput(request: FastifyRequest): Promise<GenerationInput> {
  if (!request.isMultipart()) {
    const fields = await readFormFields(request);
    return { text: fields.text ?? '', file: null };
  }
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > limits.maxFileBytes + maxMultipartOverhead) {
    throw errors.fileTooLarge();
  }
  let text = '';
  let file: GenerationInput['file'] = null;
  for await (const part of request.parts()) {
    if (part.type === 'file') {
      if (part.fieldname !== 'file' || file) {
        part.file.resume();
        continue;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      try {
        for await (const chunk of part.file as AsyncIterable<Buffer>) {
          size += chunk.length;
          chunks.push(chunk);
        }
      } catch (error) {
        if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') {
          throw errors.fileTooLarge();
        }
        throw error;
      }
      if (part.file.truncated || size > limits.maxFileBytes) throw errors.fileTooLarge();
      // A browser sends an empty part for an empty file input: that is no file.
      if (size > 0) file = { bytes: Buffer.concat(chunks), filename: part.filename ?? '' };
    } else if (part.fieldname === 'text') {
      if (part.valueTruncated) throw errors.textTooLong();
      text = typeof part.value === 'string' ? part.value : '';
    }
  }
  return { text, file };
}

export function generationRoutes(app: FastifyInstance, generation: GenerationService): void {
  app.post('/create', { onRequest: app.authenticate }, async (request) => {
    const user = currentUser(request);
    const input = await readGenerationInput(request);
    return generation.generate(user.id, input, request.log);
  });
}
