/** A link in a list of links: a page of the app, or (`external`) another site, opened in a new tab. */
export interface SiteLink {
  label: string;
  href: string;
  external?: boolean;
}

/** The footer's social link. Replace the address with the product's own profile when it has one. */
export const socialLink: SiteLink = { label: 'Follow us on X', href: 'https://x.com/', external: true };
