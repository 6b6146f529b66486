import { errorCodes } from '@flashcards/shared/errors';
import { fillMessage, messages } from '@flashcards/shared/messages';
import { useEffect, useSyncExternalStore } from 'react';
import { useApi } from '../lib/api-context';
import { dismissRejected, startOutboxSync, useOutboxStatus } from '../lib/outbox-sync';
import { Notice } from './notice';

function subscribeOnline(listener: () => void): () => void {
  window.addEventListener('online', listener);
  window.addEventListener('offline', listener);
  return () => {
    window.removeEventListener('online', listener);
    window.removeEventListener('offline', listener);
  };
}

/**
 * The signed-in top bar's sync line: offline or not, how many answers wait on the device, when the last sync was,
 * and the answers the server refused (dropped from the queue). Starts the queue's sync: now, and whenever the
 * network comes back.
 */
export function OfflineStatus() {
  const api = useApi();
  const { waiting, lastSync, rejected } = useOutboxStatus();
  const online = useSyncExternalStore(
    subscribeOnline,
    () => navigator.onLine,
    () => true,
  );
  useEffect(() => startOutboxSync(api), [api]);
  return (
    <div className="offline-status" aria-live="polite">
      {!online && <span className="offline-status__offline">{messages.offlineNow}</span>}
      {waiting > 0 && (
        <span className="offline-status__waiting">{fillMessage(messages.offlineWaiting, { count: waiting })}</span>
      )}
      {(waiting > 0 || !online) && (
        <span className="offline-status__last muted">
          {lastSync === null
            ? messages.offlineNeverSynced
            : fillMessage(messages.offlineLastSync, {
                time: new Date(lastSync).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }),
              })}
        </span>
      )}
      {rejected && (
        <Notice tone="error" className="offline-status__rejected">
          {fillMessage(messages.offlineRejected, {
            count: rejected.count,
            reason: messages[errorCodes[rejected.code].message],
          })}{' '}
          <button type="button" className="button button--small" onClick={dismissRejected}>
            {messages.offlineDismiss}
          </button>
        </Notice>
      )}
    </div>
  );
}
