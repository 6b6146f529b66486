import { messages } from '@flashcards/shared/messages';
import { noSubscription } from '@flashcards/shared/plans';
import { serverMessages } from '@flashcards/shared/server-messages';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type fakeServer, json } from '../../../test/fake-server';
import { renderApp, signedInServer } from '../../../test/render-app';
import { localStore } from '../../lib/local-store';
import { storageKeys } from '../../lib/storage-keys';

// Issue 31, "Mistakes are cheap": a wrong password answers 403 wrong_password; the page says so and the learner
// stays signed in (only a 401 ends the session).

const wrongPassword = () => json(403, { detail: serverMessages.wrongPassword, code: 'wrong_password' });

function renderAccount(routes: Parameters<typeof fakeServer>[0]) {
  const server = signedInServer({
    'GET /api/subscription-status': () => json(200, { ...noSubscription, free_quota: 10, remaining: 10 }),
    'GET /api/plans': () => json(200, []),
    ...routes,
  });
  renderApp('/account', server.fetch);
  return { calls: server.calls };
}

async function securitySection() {
  const heading = await screen.findByRole('heading', { name: messages.securityHeading });
  return heading.closest('section') as HTMLElement;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('account security', () => {
  it('a wrong current password shows the message and keeps the learner signed in', async () => {
    const { calls } = renderAccount({ 'PUT /users/me/password': wrongPassword });
    const section = await securitySection();
    fireEvent.change(within(section).getByLabelText(/^Current password/), { target: { value: 'typo' } });
    fireEvent.change(within(section).getByLabelText('New password'), { target: { value: 'a new secret phrase' } });
    fireEvent.change(within(section).getByLabelText('New password again'), {
      target: { value: 'a new secret phrase' },
    });
    fireEvent.click(within(section).getByRole('button', { name: messages.changePasswordHeading }));
    expect(await within(section).findByRole('alert')).toHaveTextContent(serverMessages.wrongPassword);
    expect(localStore.get(storageKeys.accessToken)).toBe('token');
    expect(screen.getByRole('heading', { name: messages.securityHeading })).toBeInTheDocument();
    expect(calls.filter((call) => call.path === '/users/me/password')).toHaveLength(1);
    // No sign-in was attempted with the new password.
    expect(calls.some((call) => call.path === '/login')).toBe(false);
  });

  it('a wrong password for Delete account shows the message and keeps the learner signed in', async () => {
    vi.spyOn(window, 'confirm').mockReturnValue(true);
    renderAccount({ 'DELETE /users/me': wrongPassword });
    const section = await securitySection();
    fireEvent.change(within(section).getByLabelText('Password'), { target: { value: 'typo' } });
    fireEvent.click(within(section).getByRole('button', { name: messages.deleteAccountHeading }));
    expect(await within(section).findByRole('alert')).toHaveTextContent(serverMessages.wrongPassword);
    expect(localStore.get(storageKeys.accessToken)).toBe('token');
    await waitFor(() =>
      expect(within(section).getByRole('button', { name: messages.deleteAccountHeading })).toBeEnabled(),
    );
  });

  it('lays its password inputs out as every other form does (the shared field)', async () => {
    renderAccount({});
    const section = await securitySection();
    for (const input of section.querySelectorAll('input')) {
      expect(input.closest('.field')).not.toBeNull();
      expect(input.id).not.toBe('');
      expect(section.querySelector(`label[for="${input.id}"]`)).not.toBeNull();
    }
    expect(section.querySelectorAll('input[type="password"]')).toHaveLength(4);
  });
});
