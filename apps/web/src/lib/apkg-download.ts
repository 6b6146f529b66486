import { downloadBlob } from './download';
import { localTokenStore } from './token-store';

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
