import { messages } from '@flashcards/shared/messages';
import { useAppUpdate } from '../lib/app-update';
import { Notice } from './notice';

/** "A new version is ready. Reload to update": shown while a new version of the installed app waits. */
export function UpdateNotice() {
  const reload = useAppUpdate();
  if (!reload) return null;
  return (
    <Notice tone="info" className="update-notice">
      {messages.offlineUpdateReady}{' '}
      <button type="button" className="button button--small" onClick={reload}>
        {messages.offlineReloadToUpdate}
      </button>
    </Notice>
  );
}
