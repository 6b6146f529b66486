import { messages } from '@flashcards/shared/messages';
import { Link } from 'react-router';

/** The one-time packs of product-spec.md section 9, as the login page presents them. */
const packs = [
  {
    name: 'Generation Pack (50)',
    price: '$6.99',
    planType: 'generations',
    features: ['50 AI generations', 'One-time payment, no recurring charges', 'Used after any monthly quota'],
  },
  {
    name: 'Generation Pack (100)',
    price: '$12.00',
    planType: 'generations_100',
    features: ['100 AI generations', 'One-time payment, no recurring charges', 'Best value per generation'],
  },
] as const;

export function PricingSection() {
  return (
    <section className="pricing" aria-labelledby="pricing-heading">
      <h2 id="pricing-heading">{messages.pricingHeading}</h2>
      <p className="pricing__sub">{messages.pricingSubheading}</p>
      <ul className="pricing__grid">
        {packs.map((pack) => (
          <li key={pack.planType} className="price-card">
            <h3>{pack.name}</h3>
            <p className="price-card__price">
              {pack.price} <span>one-time</span>
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
