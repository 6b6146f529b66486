import type { FileImportResponse } from '@flashcards/shared/api-types';
import { useApiMutation } from '../../lib/api-hooks';
import { deckKeys } from '../../lib/decks-api';

/** Reading a large package can take a while: the import waits up to five minutes. */
const importTimeoutMs = 300_000;

/** POST /import with the chosen file (and deck name for a text file); refreshes the decks afterwards. */
export function useImportFile() {
  return useApiMutation(
    (api, input: { file: File; deckName: string }) => {
      const form = new FormData();
      if (input.deckName.trim()) form.set('deck_name', input.deckName.trim());
      form.set('file', input.file);
      return api.post<FileImportResponse>('/import', { formData: form, timeoutMs: importTimeoutMs });
    },
    [deckKeys.all],
  );
}
