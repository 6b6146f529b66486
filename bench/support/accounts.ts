// A new account for a benchmark that drives the API: sign up with JSON, sign in with the login form (as the web app
// does), over HTTP against a running server or in process against a built app.
import type { FastifyInstance } from 'fastify';

/** One POST with a JSON body or an url-encoded form; answers the status and the parsed JSON body. */
type Post = (
  url: string,
  body: { json: unknown } | { form: URLSearchParams },
) => Promise<{ status: number; body: unknown }>;

/** Posts to a server listening at `baseUrl`. */
export const overHttp =
  (baseUrl: string): Post =>
  async (url, body) => {
    const response = await fetch(`${baseUrl}${url}`, {
      method: 'POST',
      ...('json' in body
        ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body.json) }
        : { body: body.form }),
    });
    return { status: response.status, body: await response.json() };
  };

/** Posts to a built app through `app.inject`. */
export const inProcess =
  (app: FastifyInstance): Post =>
  async (url, body) => {
    const response = await app.inject({
      method: 'POST',
      url,
      ...('json' in body
        ? { payload: body.json as Record<string, unknown> }
        : {
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            payload: body.form.toString(),
          }),
    });
    return { status: response.statusCode, body: response.json() };
  };

/** Signs a new account up and in; answers its access token. */
export async function signUpAndLogIn(post: Post, email: string, password: string): Promise<string> {
  const signup = await post('/signup', { json: { email, password, name: 'Bench' } });
  if (signup.status !== 201) throw new Error(`POST /signup answered ${signup.status}: ${JSON.stringify(signup.body)}`);
  const login = await post('/login', { form: new URLSearchParams({ username: email, password }) });
  if (login.status !== 200) throw new Error(`POST /login answered ${login.status}: ${JSON.stringify(login.body)}`);
  return (login.body as { access_token: string }).access_token;
}
