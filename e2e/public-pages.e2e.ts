import { describe, expect, it } from 'vitest';
import { seriousViolations } from './support/axe';
import { useBrowser } from './support/browser';
import { newPage, waitForHydration } from './support/pages';

const loginTitle = 'Login to the product | AI-Powered Flashcard Application';
const signupTitle = 'Sign Up for the product | Create Flashcards Instantly';

const publicPages = [
  { path: '/login', heading: 'Turn your notes into flashcards with AI' },
  { path: '/privacy', heading: 'Privacy Policy' },
  { path: '/privacy-settings', heading: 'Privacy Settings' },
  { path: '/best-for/medical-students', heading: /pharmacology/ },
  { path: '/best-for/language-learners', heading: /new language/ },
  { path: '/best-for/stem-majors', heading: /Formulas/ },
  { path: '/best-for/professionals', heading: /certifications/ },
  { path: '/best-for/teachers', heading: /your class/ },
  { path: '/share/no-such-code', heading: 'Shared deck' },
];

const browser = useBrowser();

describe('visitors', () => {
  it.each(['/', '/create', '/review', '/quiz', '/account', '/no/such/page'])(
    'are sent from %s to /login',
    async (path) => {
      const page = await newPage(browser());
      await page.goto(path);
      await page.waitForURL('**/login');
      await page.getByRole('tab', { name: 'Login' }).waitFor();
      await page.context().close();
    },
  );

  it('see the title switch with the Login / Sign Up tab', async () => {
    const page = await newPage(browser());
    await page.goto('/login');
    await page.getByRole('tab', { name: 'Sign Up' }).waitFor();
    expect(await page.title()).toBe(loginTitle);
    await page.getByRole('tab', { name: 'Sign Up' }).click();
    await page.waitForFunction((title) => document.title === title, signupTitle);
    await page.getByRole('tab', { name: 'Login' }).click();
    await page.waitForFunction((title) => document.title === title, loginTitle);
    await page.context().close();
  });

  it('see the consent banner until they choose, and not after a reload', async () => {
    const page = await newPage(browser());
    const banner = page.getByRole('region', { name: 'Cookie consent' });
    await page.goto('/privacy');
    await page.getByRole('heading', { name: 'Privacy Policy' }).waitFor();
    expect(await banner.count()).toBe(0);
    await page.goto('/login');
    await banner.waitFor();
    await banner.getByRole('button', { name: 'Accept' }).click();
    await banner.waitFor({ state: 'detached' });
    await page.reload();
    // The prerendered page carries the banner (no choice is known at build time) until hydration reads the choice.
    await waitForHydration(page);
    await banner.waitFor({ state: 'detached' });
    await page.goto('/privacy-settings');
    await waitForHydration(page);
    await page.getByText('Analytics are on.').waitFor();
    expect(await page.getByRole('switch', { name: 'Analytics' }).isChecked()).toBe(true);
    expect(await banner.count()).toBe(0);
    await page.context().close();
  });

  it('see the shared-deck message for an unknown link', async () => {
    const page = await newPage(browser());
    await page.goto('/share/no-such-code');
    const alert = page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toBe('This shared deck could not be found or may have been deleted.');
    await page.context().close();
  });
});

describe('public pages', () => {
  it.each(publicPages)('$path has no serious accessibility violations (banner shown)', async ({ path, heading }) => {
    const page = await newPage(browser());
    await page.goto(path);
    await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
    if (path.startsWith('/share/')) await page.getByRole('alert').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.context().close();
  });

  it('the sign-up tab and the open Best for? menu have no serious violations', async () => {
    const page = await newPage(browser());
    await page.goto('/login');
    await page.getByRole('tab', { name: 'Sign Up' }).click();
    await page.getByLabel('Name').waitFor();
    await page.getByRole('button', { name: /Best for\?/ }).click();
    await page.getByRole('link', { name: 'Teachers' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.context().close();
  });

  it.each(publicPages)('$path fits a 320 px wide phone without sideways scrolling', async ({ path, heading }) => {
    const page = await newPage(browser(), { width: 320, height: 640 });
    await page.goto(path);
    await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
    const widths = await page.evaluate(() => ({ content: document.documentElement.scrollWidth, viewport: innerWidth }));
    expect(widths.content).toBeLessThanOrEqual(widths.viewport);
    await page.context().close();
  });
});

describe('keyboard', () => {
  it('reaches the skip link, the tabs and the form on /login, with a visible focus ring', async () => {
    const page = await newPage(browser());
    await page.goto('/login');
    await waitForHydration(page);
    const focused = async () =>
      await page.evaluate(() => {
        const element = document.activeElement as HTMLElement | null;
        const style = element ? getComputedStyle(element) : null;
        return {
          text: (element?.getAttribute('aria-label') ?? element?.textContent ?? '').trim(),
          tag: element?.tagName ?? '',
          outline: style ? `${style.outlineStyle} ${style.outlineWidth}` : '',
        };
      });
    await page.keyboard.press('Tab');
    expect(await focused()).toMatchObject({ text: 'Skip to content', outline: 'solid 3px' });
    const reached: string[] = [];
    for (let step = 0; step < 12; step++) {
      await page.keyboard.press('Tab');
      const now = await focused();
      expect(now.outline).toBe('solid 3px');
      reached.push(now.tag === 'INPUT' ? 'input' : now.text);
    }
    expect(reached).toEqual(expect.arrayContaining(['Best for? ▾', 'Login', 'input']));
    await page.getByRole('tab', { name: 'Login' }).focus();
    await page.keyboard.press('ArrowRight');
    await page.waitForFunction(() => document.title.startsWith('Sign Up'));
    expect(await focused()).toMatchObject({ text: 'Sign Up' });
    await page.context().close();
  });
});
