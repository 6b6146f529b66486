import { appName } from '../../lib/use-document-title';

/** schema.org data for search engines (price 0 USD, rating 4.8 from 125 ratings). */
export const structuredData = {
  '@context': 'https://schema.org',
  '@type': 'SoftwareApplication',
  name: appName,
  applicationCategory: 'EducationalApplication',
  operatingSystem: 'Web',
  offers: { '@type': 'Offer', price: '0', priceCurrency: 'USD' },
  aggregateRating: { '@type': 'AggregateRating', ratingValue: '4.8', ratingCount: '125' },
} as const;

export function StructuredData() {
  return <script type="application/ld+json">{JSON.stringify(structuredData)}</script>;
}
