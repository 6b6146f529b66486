import { serverMessages } from '@flashcards/shared/server-messages';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { fakeServer, json } from '../../test/fake-server';
import { renderApp } from '../../test/render-app';
import { structuredData } from '../features/marketing/structured-data';

const config = (googleClientId: string | null) => ({
  'GET /api/config': () =>
    json(200, { google_client_id: googleClientId, ai_provider: 'offline', payment_mode: 'test' }),
});

describe('login page', () => {
  it('switches the document title with the tab', async () => {
    renderApp('/login', fakeServer(config(null)).fetch);
    const user = userEvent.setup();
    const signupTab = await screen.findByRole('tab', { name: 'Sign Up' });
    await waitFor(() => expect(document.title).toBe('Login to the product | AI-Powered Flashcard Application'));
    await user.click(signupTab);
    expect(signupTab).toHaveAttribute('aria-selected', 'true');
    expect(document.title).toBe('Sign Up for the product | Create Flashcards Instantly');
    expect(screen.getByLabelText('Name')).toBeInTheDocument();
    await user.click(screen.getByRole('tab', { name: 'Login' }));
    expect(document.title).toBe('Login to the product | AI-Powered Flashcard Application');
    expect(screen.queryByLabelText('Name')).not.toBeInTheDocument();
  });

  it('shows the server detail when login fails', async () => {
    const server = fakeServer({
      ...config(null),
      'POST /login': () => json(401, { detail: serverMessages.invalidCredentials, code: 'invalid_credentials' }),
    });
    const { router } = renderApp('/login', server.fetch);
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'wrong-pass');
    await user.click(screen.getByRole('button', { name: 'Login' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(serverMessages.invalidCredentials);
    expect(router.state.location.pathname).toBe('/login');
  });

  it('offers Google sign-in only when the server has a client id', async () => {
    const { unmount } = renderApp('/login', fakeServer(config(null)).fetch);
    await screen.findByRole('tab', { name: 'Login' });
    await waitFor(() => expect(screen.getByLabelText('Email')).toBeInTheDocument());
    expect(screen.queryByText('Continue with Google to sign in')).not.toBeInTheDocument();
    unmount();

    renderApp('/login', fakeServer(config('client-id.apps.googleusercontent.com')).fetch);
    expect(await screen.findByText('Continue with Google to sign in')).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('tab', { name: 'Sign Up' }));
    expect(screen.getByText('Continue with Google to create an account')).toBeInTheDocument();
  });

  it('carries the benefits, pricing, footer and structured data', async () => {
    renderApp('/login', fakeServer(config(null)).fetch);
    expect(await screen.findByRole('heading', { name: 'Start completely free!' })).toBeInTheDocument();
    expect(screen.getByText('Then pay only when you need more.')).toBeInTheDocument();
    const getStarted = screen.getAllByRole('link', { name: /^Get Started/ });
    expect(getStarted).toHaveLength(2);
    for (const link of getStarted) expect(link).toHaveAttribute('href', '/account');
    expect(screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent)).toEqual(
      expect.arrayContaining(['Effortless creation', 'No manual work', 'Master any concept']),
    );
    expect(screen.getByText('Join thousands of students, teachers and language learners...')).toBeInTheDocument();
    const script = document.querySelector('script[type="application/ld+json"]');
    const data = JSON.parse(script?.textContent ?? '{}');
    expect(data).toEqual(structuredData);
    expect(data.offers).toEqual({ '@type': 'Offer', price: '0', priceCurrency: 'USD' });
    expect(data.aggregateRating).toMatchObject({ ratingValue: '4.8', ratingCount: '125' });
  });
});
