import type { FileImportResponse } from '@flashcards/shared/api-types';
import { useApiMutation } from '../../lib/api-hooks';
import { downloadBlob } from '../../lib/download';
import { localTokenStore } from '../../lib/token-store';
import { deckKeys } from '../decks/decks-api';

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

/** The file name the server's Content-Disposition gives, else the deck's name. */
function fileNameFrom(response: Response, fallback: string): string {
  const header = response.headers.get('content-disposition') ?? '';
  const utf8 = /filename\*=UTF-8''([^;]+)/i.exec(header)?.[1];
  if (utf8) return decodeURIComponent(utf8);
  return /filename="([^"]+)"/i.exec(header)?.[1] ?? `${fallback}.apkg`;
}

/** GET /decks/{id}/export.apkg, saved as a file; returns its name. */
export async function downloadApkg(deckId: string, deckName: string): Promise<string> {
  const token = localTokenStore.get();
  const response = await fetch(`/decks/${encodeURIComponent(deckId)}/export.apkg`, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  if (!response.ok) throw new Error(`export failed: ${response.status}`);
  const fileName = fileNameFrom(response, deckName);
  downloadBlob(fileName, await response.blob());
  return fileName;
}
