import { messages } from '@flashcards/shared/messages';
import { LinkList } from './link-list';
import { type SiteLink, socialLink } from './site-links';

const footerLinks: readonly SiteLink[] = [
  socialLink,
  { label: 'Privacy policy', href: '/privacy' },
  { label: 'Privacy settings', href: '/privacy-settings' },
];

export function SiteFooter() {
  return (
    <footer className="site-footer">
      <p>{messages.footerLine}</p>
      <LinkList className="site-footer__links" links={footerLinks} />
    </footer>
  );
}
