import { messages } from '@flashcards/shared/messages';
import { type FormEvent, type KeyboardEvent, lazy, Suspense, useId, useRef, useState } from 'react';
import { Notice } from '../../components/notice';
import { TextField } from '../../components/text-field';
import { AuthError, useAuth } from '../../lib/auth-context';
import { useImportPending } from '../../lib/pending-import';
import { useHydrated } from '../../lib/use-hydrated';
import { loadChunk } from '../../lib/with-timeout';
import { useClientConfig } from './use-client-config';

const GoogleSignIn = lazy(() =>
  loadChunk(() => import('./google-sign-in')).then((module) => ({ default: module.GoogleSignIn })),
);

export type AuthMode = 'login' | 'signup';

const tabs: { mode: AuthMode; label: string }[] = [
  { mode: 'login', label: 'Login' },
  { mode: 'signup', label: 'Sign Up' },
];

/**
 * The Login / Sign Up card: tabs, the Google button when the server offers it, and the email form. Success
 * changes the auth state; the /login guard then moves on (to /create, or back to a pending shared deck).
 */
export function AuthPanel({ mode, onModeChange }: { mode: AuthMode; onModeChange: (mode: AuthMode) => void }) {
  const auth = useAuth();
  const config = useClientConfig();
  const panelId = useId();
  const tabRefs = useRef<Record<AuthMode, HTMLButtonElement | null>>({ login: null, signup: null });
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const googleClientId = config.data?.google_client_id;
  const sharePending = useImportPending();
  // Before hydration a click would be lost and a submit would go out natively (a GET with the password in the
  // address): the tabs and the button wait, the fields are read-only.
  const ready = useHydrated();

  function switchTo(next: AuthMode) {
    setError(null);
    onModeChange(next);
  }

  function onTabKeyDown(event: KeyboardEvent<HTMLButtonElement>) {
    if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
    event.preventDefault();
    const next: AuthMode = mode === 'login' ? 'signup' : 'login';
    switchTo(next);
    tabRefs.current[next]?.focus();
  }

  async function run(action: () => Promise<void>, fallback: string) {
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (caught) {
      setError(caught instanceof AuthError ? caught.message : fallback);
      setBusy(false);
    }
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    if (busy) return;
    if (mode === 'login') void run(() => auth.login(email.trim(), password), messages.loginFailed);
    else void run(() => auth.signup({ name: name.trim(), email: email.trim(), password }), messages.signupFailed);
  }

  return (
    <section className="auth-panel" aria-label="Sign in">
      {sharePending && <Notice tone="info">{messages.shareLoginPrompt}</Notice>}
      <div className="tabs" role="tablist" aria-label="Sign in or create an account">
        {tabs.map((tab) => (
          <button
            key={tab.mode}
            ref={(element) => {
              tabRefs.current[tab.mode] = element;
            }}
            type="button"
            role="tab"
            id={`${panelId}-${tab.mode}`}
            aria-selected={mode === tab.mode}
            aria-controls={panelId}
            tabIndex={mode === tab.mode ? 0 : -1}
            disabled={!ready}
            className="tabs__tab"
            onClick={() => switchTo(tab.mode)}
            onKeyDown={onTabKeyDown}
          >
            {tab.label}
          </button>
        ))}
      </div>
      <div id={panelId} role="tabpanel" aria-labelledby={`${panelId}-${mode}`} className="auth-panel__body">
        {googleClientId && (
          <div className="auth-panel__google">
            <p>{mode === 'login' ? messages.googleButtonSignIn : messages.googleButtonSignUp}</p>
            <Suspense fallback={<div className="google-placeholder" />}>
              <GoogleSignIn
                clientId={googleClientId}
                mode={mode}
                onCredential={(credential) => void run(() => auth.googleLogin(credential), messages.googleLoginFailed)}
                onFailure={() => setError(messages.googleAuthFailed)}
              />
            </Suspense>
            <p className="auth-panel__divider">
              <span>or use your email</span>
            </p>
          </div>
        )}
        <form className="form" onSubmit={submit}>
          {mode === 'signup' && (
            <TextField label="Name" name="name" autoComplete="name" readOnly={!ready} value={name} onValue={setName} />
          )}
          <TextField
            label="Email"
            name="email"
            type="email"
            autoComplete="email"
            required
            readOnly={!ready}
            value={email}
            onValue={setEmail}
          />
          <TextField
            label="Password"
            name="password"
            type="password"
            autoComplete={mode === 'login' ? 'current-password' : 'new-password'}
            required
            readOnly={!ready}
            value={password}
            onValue={setPassword}
          />
          {error && <Notice tone="error">{error}</Notice>}
          <button type="submit" className="button button--block" disabled={busy || !ready}>
            {mode === 'login' ? 'Login' : 'Sign Up'}
          </button>
        </form>
      </div>
    </section>
  );
}
