import { GoogleLogin, GoogleOAuthProvider } from '@react-oauth/google';

/**
 * Google Identity Services button with one-tap and auto-select. Heights by size:
 * large 40 px, medium 32 px, small 20 px; the login page uses large. Loaded only when the server has a client id.
 */
export const googleButtonSize = 'large';

export interface GoogleSignInProps {
  clientId: string;
  mode: 'login' | 'signup';
  onCredential: (credential: string) => void;
  onFailure: () => void;
}

export function GoogleSignIn({ clientId, mode, onCredential, onFailure }: GoogleSignInProps) {
  return (
    <GoogleOAuthProvider clientId={clientId} onScriptLoadError={onFailure}>
      <GoogleLogin
        onSuccess={(response) => (response.credential ? onCredential(response.credential) : onFailure())}
        onError={onFailure}
        useOneTap
        auto_select
        size={googleButtonSize}
        text={mode === 'login' ? 'signin_with' : 'signup_with'}
        shape="rectangular"
        width="300"
      />
    </GoogleOAuthProvider>
  );
}
