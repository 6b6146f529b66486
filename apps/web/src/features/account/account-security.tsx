import { limits } from '@flashcards/shared/limits';
import { messages } from '@flashcards/shared/messages';
import { type FormEvent, useId, useState } from 'react';
import { Notice } from '../../components/notice';
import { TextField } from '../../components/text-field';
import { errorDetail } from '../../lib/api-client';
import { useApi } from '../../lib/api-context';
import { useAuth } from '../../lib/auth-context';

/**
 * Account controls (docs/api.md, "Account controls"): change the password, sign out everywhere, delete the
 * account. A password change ends every session: this page signs in again with the new password at once. A wrong
 * password is a 403 (`wrong_password`): the page shows the server's message and the learner stays signed in.
 */
export function AccountSecurity() {
  const api = useApi();
  const { user, login, logout } = useAuth();
  const ids = useId();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [repeat, setRepeat] = useState('');
  const [passwordResult, setPasswordResult] = useState<{ ok: boolean; text: string } | null>(null);
  const [deletePassword, setDeletePassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (!user) return null;

  const changePassword = async (event: FormEvent) => {
    event.preventDefault();
    setPasswordResult(null);
    if (next !== repeat) return setPasswordResult({ ok: false, text: messages.newPasswordsDiffer });
    setBusy(true);
    try {
      await api.request('/users/me/password', {
        method: 'PUT',
        json: { ...(current ? { current_password: current } : {}), new_password: next },
      });
      await login(user.email, next);
      setCurrent('');
      setNext('');
      setRepeat('');
      setPasswordResult({ ok: true, text: messages.passwordChanged });
    } catch (caught) {
      setPasswordResult({ ok: false, text: errorDetail(caught, messages.changePasswordFailed) });
    } finally {
      setBusy(false);
    }
  };

  const signOutEverywhere = async () => {
    setError(null);
    setBusy(true);
    try {
      await api.post('/users/me/sign-out-everywhere');
      logout();
    } catch (caught) {
      setError(errorDetail(caught, messages.signOutEverywhereFailed));
      setBusy(false);
    }
  };

  const deleteAccount = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    if (!window.confirm(messages.deleteAccountConfirm)) return;
    setBusy(true);
    try {
      await api.request('/users/me', {
        method: 'DELETE',
        json: deletePassword ? { password: deletePassword } : {},
      });
      logout();
    } catch (caught) {
      setError(errorDetail(caught, messages.deleteAccountFailed));
      setBusy(false);
    }
  };

  return (
    <section className="panel account-card account-security" aria-labelledby={`${ids}-heading`}>
      <h2 id={`${ids}-heading`}>{messages.securityHeading}</h2>

      <form className="account-security__form" onSubmit={changePassword} aria-labelledby={`${ids}-password`}>
        <h3 id={`${ids}-password`}>{messages.changePasswordHeading}</h3>
        <PasswordInput
          label="Current password (leave empty if you have only used Google)"
          which="current"
          value={current}
          onValue={setCurrent}
        />
        <PasswordInput
          label="New password"
          which="new"
          minLength={limits.minPasswordLength}
          value={next}
          onValue={setNext}
        />
        <PasswordInput label="New password again" which="new" value={repeat} onValue={setRepeat} />
        <button type="submit" className="button" disabled={busy}>
          {messages.changePasswordHeading}
        </button>
        {passwordResult && <Notice tone={passwordResult.ok ? 'success' : 'error'}>{passwordResult.text}</Notice>}
      </form>

      <div className="account-security__block">
        <p>{messages.signOutEverywhereHelp}</p>
        <button type="button" className="button button--secondary" onClick={signOutEverywhere} disabled={busy}>
          {messages.signOutEverywhereButton}
        </button>
      </div>

      <form className="account-security__form" onSubmit={deleteAccount} aria-labelledby={`${ids}-delete`}>
        <h3 id={`${ids}-delete`}>{messages.deleteAccountHeading}</h3>
        <p>{messages.deleteAccountHelp}</p>
        <PasswordInput label="Password" which="current" value={deletePassword} onValue={setDeletePassword} />
        <button type="submit" className="button button--danger" disabled={busy}>
          {messages.deleteAccountHeading}
        </button>
      </form>

      {error && <Notice tone="error">{error}</Notice>}
    </section>
  );
}

interface PasswordInputProps {
  label: string;
  /** `current`: may stay empty (an account made with Google has none); `new`: required, a password to set. */
  which: 'current' | 'new';
  value: string;
  onValue: (value: string) => void;
  minLength?: number;
}

/** A password box in the shared field layout, like every other form's; never longer than a password may be. */
function PasswordInput({ label, which, value, onValue, minLength }: PasswordInputProps) {
  return (
    <TextField
      label={label}
      type="password"
      autoComplete={`${which}-password`}
      required={which === 'new'}
      minLength={minLength}
      maxLength={limits.maxPasswordLength}
      value={value}
      onValue={onValue}
    />
  );
}
