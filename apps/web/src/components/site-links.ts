/** The footer's social link. Replace the address with the product's own profile when it has one. */
export const socialLink = { label: 'Follow us on X', href: 'https://x.com/' } as const;
