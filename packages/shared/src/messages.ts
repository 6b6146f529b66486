/**
 * Every message a person can see, in one place. Texts quoted by product-spec.md are copied word for word;
 * the rest are ours. The server sends them as `detail`, the web app shows them.
 */
export const messages = {
  // Accounts (server)
  invalidEmail: 'Please enter a valid email address.',
  passwordTooShort: 'Password must be at least 8 characters.',
  passwordTooLong: 'Password must be at most 1024 characters.',
  nameTooLong: 'Name must be at most 100 characters.',
  emailTaken: 'An account with this email already exists.',
  invalidCredentials: 'Incorrect email or password.',
  notAuthenticated: 'Not authenticated.',
  googleLoginUnavailable: 'Google sign-in is not configured on this server.',
  googleTokenInvalid: 'Google sign-in could not be verified. Please try again.',
  googleEmailUnverified: 'Your Google account email address is not verified.',

  // Accounts (web app fallbacks, product-spec.md section 8)
  loginFailed: 'Login failed',
  signupFailed: 'Signup failed',
  googleLoginFailed: 'Google login failed',
  googleAuthFailed: 'Google authentication failed. Please try again.',

  // HTTP
  badRequest: 'The request could not be understood.',
  malformedJson: 'The request body is not valid JSON.',
  unsupportedContentType: 'This content type is not accepted here.',
  bodyTooLarge: 'The request body is too large.',
  notFound: 'Not found.',
  rateLimited: 'Too many requests. Please wait a moment and try again.',
  internalError: 'Something went wrong on our side. Please try again.',
  serviceUnavailable: 'The service is starting or shutting down. Please try again in a moment.',
  validationFailed: 'Some fields are not valid.',
  requestTimeout: 'Request timeout: The server took too long to respond',

  // Billing
  unknownPlan: 'Please choose one of the available plans.',
  verifyFailed: 'Error verifying {plan} subscription/purchase',
  packPurchased: '{generations} generations were added to your account.',
  subscriptionActive: 'Your Monthly subscription is active: {generations} premium generations a month.',
  nothingToManage: 'There is no subscription or purchase to manage yet.',
  webhookSignatureInvalid: 'The webhook signature could not be verified.',
  paymentProviderUnavailable: 'The payment provider could not be reached. Please try again.',
  testModeNotice: 'Test mode: no real payment is made and nothing is charged.',
  checkoutNotFound: 'This checkout does not exist or has expired.',
} as const;

/** Fills `{name}` placeholders of a message. */
export function fillMessage(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}

export type MessageKey = keyof typeof messages;
