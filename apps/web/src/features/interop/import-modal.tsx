import { messages } from '@flashcards/shared/messages';
import { type FormEvent, useId, useState } from 'react';
import { Modal } from '../../components/modal';
import { errorDetail } from '../../lib/api-client';
import { fill } from '../../lib/fill';
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
        {importFile.isError && (
          <p className="notice notice--error" role="alert">
            {errorDetail(importFile.error, messages.importFileFailed)}
          </p>
        )}
        {result && (
          <div className="notice notice--success" role="status">
            <p>
              {fill(messages.importDone, {
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
