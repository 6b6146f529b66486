import type { OcclusionSuggestion, UploadedMedia } from '@flashcards/shared/api-types';
import { useApiMutation } from '../../lib/api-hooks';

/** OCR of a large image on a busy server takes a while: the suggestion waits longer than an ordinary request. */
const suggestTimeoutMs = 90_000;

/** POST /media: an image to occlude. */
export function useUploadImage() {
  return useApiMutation((api, file: File) => {
    const formData = new FormData();
    formData.append('file', file);
    return api.post<UploadedMedia>('/media', { formData });
  });
}

/** POST /occlusion/suggest: one box per text label of an uploaded image. */
export function useSuggestMasks() {
  return useApiMutation((api, media: string) =>
    api.post<OcclusionSuggestion>('/occlusion/suggest', { json: { media }, timeoutMs: suggestTimeoutMs }),
  );
}
