import { messages } from '@flashcards/shared/messages';
import { useState } from 'react';
import { SiteFooter } from '../components/site-footer';
import { type AuthMode, AuthPanel } from '../features/auth/auth-panel';
import { BenefitsStrip } from '../features/marketing/benefits-strip';
import { PricingSection } from '../features/marketing/pricing-section';
import { StructuredData } from '../features/marketing/structured-data';
import { PublicHeader } from '../layout/public-header';
import { useDocumentTitle } from '../lib/use-document-title';

/** /login: the landing page with the Login and Sign Up tabs. */
export function LoginPage() {
  const [mode, setMode] = useState<AuthMode>('login');
  useDocumentTitle(mode === 'login' ? messages.loginPageTitle : messages.signupPageTitle);

  return (
    <>
      <PublicHeader />
      <main id="main" className="page page--landing">
        <section className="hero">
          <div className="hero__text">
            <h1>Turn your notes into flashcards with AI</h1>
            <p className="hero__lead">
              Paste text or upload a PDF, Word document, slides or a photo. Get question and answer cards in seconds,
              then learn them with spaced repetition that shows each card right before you would forget it.
            </p>
          </div>
          <AuthPanel mode={mode} onModeChange={setMode} />
        </section>
        <BenefitsStrip />
        <PricingSection />
      </main>
      <SiteFooter />
      <StructuredData />
    </>
  );
}
