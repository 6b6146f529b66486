import { messages } from '@flashcards/shared/messages';
import { Link } from 'react-router';
import { SiteLayout } from '../layout/site-layout';
import { appName, useDocumentTitle } from '../lib/use-document-title';

/** /privacy: the privacy policy. The consent banner stays off this page. */
export function PrivacyPage() {
  useDocumentTitle(`Privacy Policy | ${appName}`);
  return (
    <SiteLayout>
      <main id="main" className="page page--narrow prose">
        <h1>Privacy Policy</h1>
        <p className="muted">Last updated: {messages.privacyLastUpdated}</p>
        <p>
          This policy explains what {appName} collects when you use it, why, and what you can do about it. We collect as
          little as the product needs and we do not sell personal data.
        </p>

        <h2>What we collect</h2>
        <ul>
          <li>
            <strong>Account data:</strong> your email address and name, and a password hash if you sign up with email.
            If you sign in with Google we receive your email address and name from Google.
          </li>
          <li>
            <strong>Your study material:</strong> the text and files you submit to generate cards, and the decks, cards
            and review history you save.
          </li>
          <li>
            <strong>Purchases:</strong> which plan or pack you bought and its status. Card details are handled by our
            payment provider and never reach our servers.
          </li>
          <li>
            <strong>Feedback:</strong> what you send through the feedback form, and your email address if you give it.
          </li>
          <li>
            <strong>Usage statistics:</strong> only if you allow analytics, anonymous information about which features
            are used.
          </li>
        </ul>

        <h2>How we use it</h2>
        <p>
          To run your account, generate and schedule your cards, process payments, answer feedback and, with your
          consent, improve the product. Text and files you submit for generation are sent to the AI service that writes
          the cards, only for that purpose.
        </p>

        <h2>Cookies and local storage</h2>
        <p>
          We store your sign-in token and a few preferences (such as your consent choice, unsaved generated cards and
          whether you have seen the tutorial) in your browser&apos;s local storage. These are needed for the product to
          work. Analytics are off unless you accept them; you can change your choice at any time on the{' '}
          <Link to="/privacy-settings">privacy settings</Link> page.
        </p>

        <h2>Sharing</h2>
        <p>
          A deck you share by link can be seen and imported by anyone who has the link, together with your name as its
          owner. We share personal data with service providers (hosting, AI generation, payments) only as needed to
          provide the product.
        </p>

        <h2>How long we keep it</h2>
        <p>As long as your account exists. When you delete a deck, its cards and review history are deleted with it.</p>

        <h2>Your rights</h2>
        <p>
          You can ask for a copy of your data, its correction or its deletion, and you can object to its use. Send us
          your request through the feedback form, signed in with the account concerned.
        </p>
      </main>
    </SiteLayout>
  );
}
