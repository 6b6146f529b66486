import { messages } from '@flashcards/shared/messages';
import { plans } from '@flashcards/shared/plans';
import { Link } from 'react-router';

/** The one-time packs (the plans the server sells, GET /api/plans in docs/api.md), as the login page presents them. */
const packs = plans.filter((plan) => plan.kind === 'pack');

export function PricingSection() {
  return (
    <section className="pricing" aria-labelledby="pricing-heading">
      <h2 id="pricing-heading">{messages.pricingHeading}</h2>
      <p className="pricing__sub">{messages.pricingSubheading}</p>
      <ul className="pricing__grid">
        {packs.map((pack) => (
          <li key={pack.planType} className="panel panel--flat price-card">
            <h3>{pack.name}</h3>
            <p className="price-card__price">
              ${pack.price.toFixed(2)} <span>one-time</span>
            </p>
            <ul className="price-card__features">
              {pack.features.map((feature) => (
                <li key={feature}>{feature}</li>
              ))}
            </ul>
            <Link to="/account" className="button" aria-label={`${messages.getStarted} with ${pack.name}`}>
              {messages.getStarted}
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
