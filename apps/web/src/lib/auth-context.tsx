import type { SignupRequest, TokenResponse, User } from '@flashcards/shared/api-types';
import { messages } from '@flashcards/shared/messages';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useRef, useState } from 'react';
import { type ApiClient, errorDetail, isOfflineError } from './api-client';
import { browserTimeZone } from './time-zone';
import type { TokenStore } from './token-store';

const noop = () => null;

/**
 * Auth state: on start a stored token loads the current user (and is removed when
 * the server answers 401); `loading` stays true until then. Login stores the token, then loads the user; signup registers,
 * then logs in; logout removes the token, clears the user and goes to '/'.
 * Failures reach callers as AuthError with the text to show (server detail or the spec's fallback).
 */

export class AuthError extends Error {
  override name = 'AuthError';
}

export interface AuthState {
  user: User | null;
  loading: boolean;
  login(email: string, password: string): Promise<void>;
  signup(input: SignupRequest): Promise<void>;
  googleLogin(credential: string): Promise<void>;
  logout(): void;
  /** What the server asked to tell the user about the latest sign-in (e.g. a password removed when Google was linked). */
  notice: string | null;
  dismissNotice(): void;
}

/** The request's answer; its failure as an AuthError with the server's detail, else `failure`. */
async function orAuthError<T>(request: Promise<T>, failure: string): Promise<T> {
  try {
    return await request;
  } catch (error) {
    throw new AuthError(errorDetail(error, failure));
  }
}

const AuthContext = createContext<AuthState | null>(null);

export interface AuthProviderProps {
  api: ApiClient;
  tokens: TokenStore;
  /** Where logout sends the browser ('/'). */
  goTo: (path: string) => void;
  children: ReactNode;
}

export function AuthProvider({ api, tokens, goTo, children }: AuthProviderProps) {
  const [user, setUser] = useState<User | null>(null);
  const [loading, setLoading] = useState(() => tokens.get() !== null);
  const [notice, setNotice] = useState<string | null>(null);
  const dismissNotice = useCallback(() => setNotice(null), []);

  useEffect(() => {
    if (!tokens.get()) return;
    let cancelled = false;
    api
      .get<User>('/users/me', { quietUnauthorized: true })
      .then(
        (me) => {
          if (!cancelled) setUser(me);
          // Kept for review with no network; loaded apart so that the public pages' code does not carry it.
          void import('./offline-store').then(({ keepResponse }) => keepResponse('/users/me', me, Date.now()), noop);
        },
        // Only a 401 ends the stored session (the client removes the token then): a request cut short by a
        // navigation, a network failure or a server error leaves it for the next page load. With no network at
        // all, the user as last kept on the device opens the installed app offline.
        async (error: unknown) => {
          if (!isOfflineError(error)) return;
          const kept = await import('./offline-store').then(
            ({ keptResponse }) => keptResponse<User>('/users/me'),
            noop,
          );
          if (!cancelled && kept) setUser(kept);
        },
      )
      .finally(() => {
        if (!cancelled) setLoading(false);
      });
    return () => {
      cancelled = true;
    };
  }, [api, tokens]);

  // The study day follows the learner's time zone: once signed in, the browser's zone is saved when it differs.
  const zoneSynced = useRef<string | null>(null);
  useEffect(() => {
    const zone = browserTimeZone();
    if (!user || zone === null || user.time_zone === zone || zoneSynced.current === user._id) return;
    zoneSynced.current = user._id;
    api.request<{ time_zone: string }>('/users/me/settings', { method: 'PUT', json: { time_zone: zone } }).then(
      (saved) => setUser((current) => (current && current._id === user._id ? { ...current, ...saved } : current)),
      // A zone this server does not know keeps the one it has; nothing to show.
      () => {},
    );
  }, [api, user]);

  /** Asks for a token, stores it and loads the user; a failure of either is an AuthError saying why. */
  const signIn = useCallback(
    async (tokenRequest: Promise<TokenResponse>, failure: string) => {
      const token = await orAuthError(tokenRequest, failure);
      tokens.set(token.access_token);
      try {
        setUser(await api.get<User>('/users/me'));
      } catch (error) {
        tokens.remove();
        throw new AuthError(errorDetail(error, failure));
      }
      return token;
    },
    [api, tokens],
  );

  const login = useCallback(
    async (email: string, password: string) => {
      await signIn(api.post<TokenResponse>('/login', { form: { username: email, password } }), messages.loginFailed);
    },
    [api, signIn],
  );

  const signup = useCallback(
    async (input: SignupRequest) => {
      await orAuthError(api.post<User>('/signup', { json: input }), messages.signupFailed);
      await login(input.email, input.password);
    },
    [api, login],
  );

  const googleLogin = useCallback(
    async (credential: string) => {
      const token = await signIn(
        api.post<TokenResponse>('/google-login', { json: { credential } }),
        messages.googleLoginFailed,
      );
      setNotice(token.notice ?? null);
    },
    [api, signIn],
  );

  const logout = useCallback(() => {
    tokens.remove();
    setUser(null);
    goTo('/');
  }, [tokens, goTo]);

  const value = useMemo<AuthState>(
    () => ({ user, loading, login, signup, googleLogin, logout, notice, dismissNotice }),
    [user, loading, login, signup, googleLogin, logout, notice, dismissNotice],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthState {
  const state = useContext(AuthContext);
  if (!state) throw new Error('useAuth needs an <AuthProvider> above it');
  return state;
}
