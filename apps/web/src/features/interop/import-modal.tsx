import { fillMessage, messages } from '@flashcards/shared/messages';
import { type FormEvent, useId, useState } from 'react';
import { Modal } from '../../components/modal';
import { Notice } from '../../components/notice';
import { errorDetail } from '../../lib/api-client';
import { useImportFile } from './interop-api';

export const importAccept = '.apkg,.colpkg,.txt,.csv,.tsv';

/**
 * Import from Anki (.apkg, .colpkg), Anki's text export, CSV, TSV or Quizlet (POST /import). Shows what was
 * imported, what was skipped and the server's warnings (sounds left out, missing images).
 */
export function ImportModal({ onClose }: { onClose: () => void }) {
  const id = useId();
  const importFile = useImportFile();
  const [file, setFile] = useState<File | null>(null);
  const [deckName, setDeckName] = useState('');

  function submit(event: FormEvent) {
    event.preventDefault();
    if (file) importFile.mutate({ file, deckName });
  }

  const result = importFile.data;
  return (
    <Modal title={messages.importTitle} onClose={onClose}>
      <form className="import-form" onSubmit={submit}>
        <p className="muted">{messages.importIntro}</p>
        <div className="field">
          <label htmlFor={`${id}-file`}>{messages.importChooseFile}</label>
          <input
            id={`${id}-file`}
            type="file"
            accept={importAccept}
            required
            onChange={(event) => setFile(event.target.files?.[0] ?? null)}
          />
        </div>
        <div className="field">
          <label htmlFor={`${id}-deck`}>{messages.importDeckName}</label>
          <input
            id={`${id}-deck`}
            type="text"
            maxLength={200}
            value={deckName}
            onChange={(event) => setDeckName(event.target.value)}
          />
        </div>
        {importFile.isError && <Notice tone="error">{errorDetail(importFile.error, messages.importFileFailed)}</Notice>}
        {result && (
          <div className="notice notice--success" role="status">
            <p>
              {fillMessage(messages.importDone, {
                cards: result.cards_imported,
                decks: result.decks.length,
                skipped: result.skipped,
              })}
            </p>
            {result.warnings.length > 0 && (
              <ul>
                {result.warnings.map((warning) => (
                  <li key={warning}>{warning}</li>
                ))}
              </ul>
            )}
          </div>
        )}
        <button type="submit" className="button" disabled={!file || importFile.isPending}>
          {importFile.isPending ? messages.importRunning : messages.importSubmit}
        </button>
      </form>
    </Modal>
  );
}
