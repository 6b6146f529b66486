import { generationCosts, limits } from '@flashcards/shared/limits';
import { fillMessage, messages } from '@flashcards/shared/messages';
import { ApiRequestError } from '../../lib/api-client';

/** How long the "cards saved" banner stays (product-spec.md section 9). */
export const saveBannerMs = 5000;

/** File types the picker takes (product-spec.md section 5): extension and the MIME types a browser may report. */
const fileTypes: Record<string, readonly string[]> = {
  pdf: ['application/pdf'],
  txt: ['text/plain'],
  docx: ['application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
  doc: ['application/msword'],
  pptx: ['application/vnd.openxmlformats-officedocument.presentationml.presentation'],
  jpg: ['image/jpeg'],
  jpeg: ['image/jpeg'],
  png: ['image/png'],
};

/** Browsers report these when they do not know a file's type; the extension then decides. */
const unknownMimeTypes = new Set(['', 'application/octet-stream']);

/** What the file picker offers. */
export const acceptedFiles = Object.keys(fileTypes)
  .map((extension) => `.${extension}`)
  .join(',');

export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
}

/**
 * The message for a file the page cannot take, or null when it is fine: at most 10 MB, and one of PDF, TXT, DOCX,
 * DOC, PPTX, JPG, PNG by extension with a matching (or unknown) MIME type. A .pptx whose MIME type does not match
 * gets the "unknown MIME type" variant.
 */
export function fileProblem(file: Pick<File, 'name' | 'size' | 'type'>): string | null {
  if (file.size > limits.maxFileBytes) return messages.fileTooLarge;
  const extension = extensionOf(file.name);
  const mimeTypes = fileTypes[extension];
  const type = file.type.toLowerCase();
  if (mimeTypes && (mimeTypes.includes(type) || unknownMimeTypes.has(type))) return null;
  return extension === 'pptx' ? messages.invalidFileTypePptx : messages.invalidFileType;
}

/** Generation cost (product-spec.md section 5): 1 for text only, 3 for an image or document file, 5 for PPTX. */
export function generationCost(file: Pick<File, 'name'> | null): number {
  if (!file) return generationCosts.text;
  return extensionOf(file.name) === 'pptx' ? generationCosts.pptx : generationCosts.file;
}

/** The text shown for a failed generation (product-spec.md section 8). */
export function generationErrorMessage(error: unknown): string {
  if (!(error instanceof ApiRequestError)) return messages.generationFailed;
  if (error.kind === 'timeout') return messages.generationTimeout;
  if (error.kind === 'network') return messages.noResponse;
  if (error.code === 'insufficient_quota') return messages.insufficientQuota;
  return fillMessage(messages.generationServerError, { detail: error.detail || messages.generationFailed });
}
