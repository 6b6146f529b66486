import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { sessionKeys } from './lib/storage-keys';
import './styles/global.css';

// A deployment replaced the hashed chunks this page refers to: reload once to get the current build.
window.addEventListener('vite:preloadError', (event) => {
  try {
    if (sessionStorage.getItem(sessionKeys.reloadedForChunk)) return;
    sessionStorage.setItem(sessionKeys.reloadedForChunk, '1');
  } catch {
    return;
  }
  event.preventDefault();
  window.location.reload();
});

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
