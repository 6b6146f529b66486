import { messages } from '@flashcards/shared/messages';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { ChunkLoadError } from '../lib/with-timeout';

/**
 * The generic fallbacks: a script chunk that failed to load (a new deployment or a
 * lost connection; reloading fetches the current build) and any other error ('Unexpected Application Error!').
 */
export function RouteErrorScreen() {
  const error = useRouteError();
  const chunkFailed = error instanceof ChunkLoadError;
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error && !chunkFailed
      ? error.message
      : null;

  return (
    <main id="main" className="page page--narrow error-screen">
      <h1>{messages.unexpectedError}</h1>
      <p>{chunkFailed ? messages.chunkLoadFailed : detail}</p>
      <button type="button" className="button" onClick={() => window.location.reload()}>
        Reload the page
      </button>
    </main>
  );
}
