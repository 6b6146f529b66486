import { messages } from '@flashcards/shared/messages';
import { Link, useParams } from 'react-router';
import { SiteFooter } from '../components/site-footer';
import { findAudience } from '../features/marketing/audiences';
import { FallbackRedirect } from '../layout/guards';
import { PublicHeader } from '../layout/public-header';
import { useDocumentTitle } from '../lib/use-document-title';

/** /best-for/{audience}: one marketing page per audience, each ending in 'Try free' → /login. */
export function BestForPage() {
  const audience = findAudience(useParams().audience);
  useDocumentTitle(audience?.title);
  if (!audience) return <FallbackRedirect />;

  return (
    <>
      <PublicHeader />
      <main id="main" className="page page--narrow marketing">
        <p className="marketing__eyebrow">Best for {audience.menuLabel.toLowerCase()}</p>
        <h1>{audience.heading}</h1>
        <p className="marketing__intro">{audience.intro}</p>
        <Link to="/login" className="button button--large">
          {messages.tryFree}
        </Link>
        <ul className="marketing__points">
          {audience.points.map((point) => (
            <li key={point.title}>
              <h2>{point.title}</h2>
              <p>{point.text}</p>
            </li>
          ))}
        </ul>
        <section className="marketing__example" aria-labelledby="example-heading">
          <h2 id="example-heading">A card it could make for you</h2>
          <dl className="example-card">
            <dt>Question</dt>
            <dd>{audience.example.question}</dd>
            <dt>Answer</dt>
            <dd>{audience.example.answer}</dd>
          </dl>
        </section>
        <section className="marketing__tip" aria-labelledby="tip-heading">
          <h2 id="tip-heading">Study tip</h2>
          <p>{audience.tip}</p>
        </section>
        <Link to="/login" className="button button--large">
          {messages.tryFree}
        </Link>
      </main>
      <SiteFooter />
    </>
  );
}
