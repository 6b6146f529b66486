import type { SignupRequest, TokenResponse, User } from '@flashcards/shared/api-types';
import { messages } from '@flashcards/shared/messages';
import { createContext, type ReactNode, useCallback, useContext, useMemo, useState } from 'react';
import { type ApiClient, errorDetail } from './api-client';
import type { TokenStore } from './token-store';

/**
 * Auth state as components read it (`useAuth`). The app keeps the signed-in user in React Query
 * (lib/auth-provider.tsx); the public pages, whose light entry has no query cache and whose visitor holds no
 * token, keep it in component state (`VisitorAuthProvider`). Both sign in the same way (`useSignIn`): login stores
 * the token, then loads the user; signup registers, then logs in; logout removes the token, clears the user and
 * goes to '/'. Failures reach callers as AuthError with the text to show (server detail or the spec's fallback).
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

/** Where a provider keeps the signed-in user: React Query's cache in the app, component state on public pages. */
export interface UserHolder {
  user: User | null;
  loading: boolean;
  setUser(user: User | null): void;
}

/** The auth state over a holder of the user: sign-in, sign-up, Google, sign-out and the sign-in notice. */
export function useSignIn({ api, tokens, goTo }: Omit<AuthProviderProps, 'children'>, holder: UserHolder): AuthState {
  const { user, loading, setUser } = holder;
  const [notice, setNotice] = useState<string | null>(null);
  const dismissNotice = useCallback(() => setNotice(null), []);

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
    [api, tokens, setUser],
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
  }, [tokens, setUser, goTo]);

  return useMemo<AuthState>(
    () => ({ user, loading, login, signup, googleLogin, logout, notice, dismissNotice }),
    [user, loading, login, signup, googleLogin, logout, notice, dismissNotice],
  );
}

/** Hands an auth state to `useAuth` below it. */
export function AuthContextProvider({ value, children }: { value: AuthState; children: ReactNode }) {
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

/**
 * The public pages' auth: their entry runs only for a visitor with no token (public-main.tsx starts the app
 * otherwise), so nobody is signed in at first and there is nothing to load; signing in here leads to another page.
 */
export function VisitorAuthProvider({ children, ...deps }: AuthProviderProps) {
  const [user, setUser] = useState<User | null>(null);
  const value = useSignIn(deps, { user, loading: false, setUser });
  return <AuthContextProvider value={value}>{children}</AuthContextProvider>;
}

export function useAuth(): AuthState {
  const state = useContext(AuthContext);
  if (!state) throw new Error('useAuth needs an auth provider above it');
  return state;
}
