/**
 * First paint without JavaScript: the public pages arrive prerendered and then hydrate in place; the signed-in
 * pages arrive as the navigation bar and a skeleton; the consent banner is one line that covers no control.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { signUpByApi } from './support/api';
import { useBrowser } from './support/browser';
import { baseUrl, newPage, waitForHydration } from './support/pages';

const browser = useBrowser();

const publicPages = [
  {
    path: '/login',
    title: 'Login to the product | AI-Powered Flashcard Application',
    heading: 'Turn your notes into flashcards with AI',
    text: 'Start completely free!',
  },
  { path: '/privacy', title: 'Privacy Policy | AI Flashcards', heading: 'Privacy Policy', text: 'What we collect' },
  {
    path: '/privacy-settings',
    title: 'Privacy Settings | AI Flashcards',
    heading: 'Privacy Settings',
    text: 'Allow anonymous usage statistics',
  },
  {
    path: '/best-for/medical-students',
    title: 'Flashcards for Medical Students | AI Flashcards',
    heading: 'Learn pharmacology, anatomy and pathways without writing a single card',
    text: 'Slides to cards',
  },
  {
    path: '/best-for/language-learners',
    title: 'Flashcards for Language Learners | AI Flashcards',
    heading: /new language/,
    text: 'Study tip',
  },
  {
    path: '/best-for/stem-majors',
    title: 'Flashcards for STEM Majors | AI Flashcards',
    heading: /Formulas/,
    text: 'Study tip',
  },
  {
    path: '/best-for/professionals',
    title: 'Flashcards for Professionals | AI Flashcards',
    heading: /certifications/,
    text: 'Study tip',
  },
  {
    path: '/best-for/teachers',
    title: 'Flashcards for Teachers | AI Flashcards',
    heading: /your class/,
    text: 'Study tip',
  },
];

async function rawHtml(path: string): Promise<string> {
  const response = await fetch(`${baseUrl()}${path}`, { headers: { accept: 'text/html' } });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
  return await response.text();
}

/** Errors the page reports: console errors (React's hydration mismatches among them) and uncaught exceptions. */
function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(String(error)));
  return errors;
}

describe('public pages before any script runs', () => {
  it.each(publicPages)(
    '$path arrives with its title, heading and text in the HTML',
    async ({ path, title, heading, text }) => {
      const html = await rawHtml(path);
      expect(html).toContain(`<title>${title}</title>`);
      expect(html).toContain('data-prerendered="page"');
      const h1 = html.match(/<h1[^>]*>([^<]*)<\/h1>/)?.[1] ?? '';
      if (typeof heading === 'string') expect(h1).toBe(heading);
      else expect(h1).toMatch(heading);
      expect(html).toContain(text);
    },
  );

  it.each(publicPages)('$path reads with JavaScript off', async ({ path, title, heading, text }) => {
    const context = await browser().newContext({ baseURL: baseUrl(), javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(path);
    expect(await page.title()).toBe(title);
    expect(await page.getByRole('heading', { name: heading, level: 1 }).isVisible()).toBe(true);
    expect(await page.getByText(text).first().isVisible()).toBe(true);
    await context.close();
  });

  it('/login offers its form with JavaScript off', async () => {
    const context = await browser().newContext({ baseURL: baseUrl(), javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto('/login');
    expect(await page.getByRole('tab', { name: 'Login', selected: true }).isVisible()).toBe(true);
    expect(await page.getByLabel('Email').isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Login', exact: true }).isVisible()).toBe(true);
    await context.close();
  });
});

describe('hydration', () => {
  it.each(publicPages)(
    '$path hydrates in place: same nodes, no error, the controls respond',
    async ({ path, heading }) => {
      const page = await newPage(browser());
      const errors = collectErrors(page);
      // The page's <main> as the HTML parser made it, kept to check that hydration adopts it rather than replacing it.
      await page.addInitScript(() => {
        const observer = new MutationObserver(() => {
          const main = document.getElementById('main');
          if (!main) return;
          (window as unknown as { parsedMain: Element }).parsedMain = main;
          observer.disconnect();
        });
        observer.observe(document, { childList: true, subtree: true });
      });
      await page.goto(path);
      await waitForHydration(page);
      expect(
        await page.evaluate(
          () => document.getElementById('main') === (window as unknown as { parsedMain?: Element }).parsedMain,
        ),
      ).toBe(true);
      await page.getByRole('heading', { name: heading, level: 1 }).waitFor();
      await page.getByRole('button', { name: /Best for\?/ }).click();
      await page.getByRole('link', { name: 'Teachers' }).waitFor();
      expect(errors).toEqual([]);
      await page.context().close();
    },
  );

  it('/login: the Sign Up tab and the title follow a click once hydrated', async () => {
    const page = await newPage(browser());
    const errors = collectErrors(page);
    await page.goto('/login');
    await waitForHydration(page);
    await page.getByRole('tab', { name: 'Sign Up' }).click();
    await page.getByLabel('Name').waitFor();
    await page.waitForFunction(() => document.title === 'Sign Up for the product | Create Flashcards Instantly');
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('/privacy-settings: the switch works once hydrated', async () => {
    const page = await newPage(browser());
    const errors = collectErrors(page);
    await page.goto('/privacy-settings');
    await waitForHydration(page);
    await page.getByRole('switch', { name: 'Analytics' }).check();
    await page.getByText('Analytics are on.').waitFor();
    expect(await page.evaluate(() => localStorage.getItem('analytics_consent'))).toBe('true');
    expect(errors).toEqual([]);
    await page.context().close();
  });

  it('a signed-in visitor of /privacy gets their own navigation bar, without a hydration error', async () => {
    const page = await newPage(browser());
    const errors = collectErrors(page);
    const { token } = await signUpByApi(page.request, 'hydrate', 'Hana');
    await page.goto('/login');
    await page.evaluate((value) => localStorage.setItem('access_token', value), token);
    await page.goto('/privacy');
    await page.getByRole('link', { name: 'Statistics' }).waitFor();
    expect(await page.getByRole('link', { name: 'Log in' }).count()).toBe(0);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});

describe('the signed-in shell', () => {
  it.each([
    ['/review', 'Review'],
    ['/create', 'Create Cards'],
    ['/quiz', 'Quiz'],
    ['/stats', 'Statistics'],
  ])('%s arrives as the navigation bar, its link current, and Loading...', async (path, link) => {
    const html = await rawHtml(path);
    expect(html).toContain('data-prerendered="shell"');
    expect(html).toMatch(new RegExp(`<a aria-current="page"[^>]* href="${path}"[^>]*>${link}</a>`));
    expect(html).toContain('Loading...');
    expect(html).not.toContain('<h1');
  });

  it('paints the navigation bar and a skeleton while the session is still being checked', async () => {
    const page = await newPage(browser());
    const errors = collectErrors(page);
    const { token } = await signUpByApi(page.request, 'shell', 'Sam');
    await page.goto('/privacy');
    await page.evaluate((value) => localStorage.setItem('access_token', value), token);
    // The session check never answers: whatever shows is what a learner sees before their data.
    await page.route('**/users/me', () => {});
    await page.goto('/stats');
    await page.waitForFunction(() =>
      Object.keys(document.querySelector('.nav-bar') ?? {}).some((key) => key.startsWith('__reactFiber')),
    );
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Statistics' }).waitFor();
    const status = page.getByRole('main').getByRole('status');
    await status.waitFor();
    expect(await status.textContent()).toBe('Loading...');
    expect(await page.getByRole('heading', { level: 1 }).count()).toBe(0);
    expect(await page.getByRole('heading', { name: 'At a glance' }).count()).toBe(0);
    expect(errors).toEqual([]);
    await page.context().close();
  });
});

/** Whether the banner's box overlaps the control's, both as laid out now (in page coordinates). */
async function overlapsBanner(page: Page, control: ReturnType<Page['getByRole']>): Promise<boolean> {
  const banner = await page.getByRole('region', { name: 'Cookie consent' }).boundingBox();
  const box = await control.boundingBox();
  if (!banner || !box) throw new Error('the banner or the control is not laid out');
  return !(
    box.x + box.width <= banner.x ||
    banner.x + banner.width <= box.x ||
    box.y + box.height <= banner.y ||
    banner.y + banner.height <= box.y
  );
}

describe('the consent banner', () => {
  it.each([
    { width: 390, height: 844 },
    { width: 1280, height: 900 },
  ])(
    'is one line that covers neither Generate, the progress line nor Save on /create at $width px',
    async (viewport) => {
      const page = await newPage(browser(), viewport);
      const { token } = await signUpByApi(page.request, `banner-${viewport.width}`, 'Bea');
      await page.goto('/privacy');
      await page.evaluate((value) => {
        localStorage.setItem('access_token', value);
        localStorage.setItem('onboarding_shown', 'true');
      }, token);
      await page.goto('/create');
      const text = page.getByLabel('Text to turn into flashcards');
      await text.waitFor();
      const banner = page.getByRole('region', { name: 'Cookie consent' });
      await banner.waitFor();
      const lines = await banner.evaluate((element) => {
        const text = element.querySelector('p');
        const style = text ? getComputedStyle(text) : null;
        return {
          height: element.getBoundingClientRect().height,
          textHeight: text?.getBoundingClientRect().height ?? 0,
          lineHeight: style ? Number.parseFloat(style.lineHeight) : 0,
        };
      });
      expect(lines.textHeight).toBeLessThan(lines.lineHeight * 1.5);
      expect(lines.height).toBeLessThanOrEqual(56);

      const tutorial = page.getByRole('dialog', { name: 'Welcome' });
      if (await tutorial.isVisible()) {
        await page.keyboard.press('Escape');
        await tutorial.waitFor({ state: 'detached' });
      }
      await text.fill(
        'Photosynthesis turns light, water and carbon dioxide into glucose and oxygen. The mitochondrion produces most of the energy of the cell as ATP.',
      );
      const generate = page.getByRole('button', { name: /Generate Flashcards/ });
      expect(await overlapsBanner(page, generate)).toBe(false);

      // Generation held until the progress line has been checked.
      let release: () => void = () => {};
      const released = new Promise<void>((resolve) => {
        release = resolve;
      });
      await page.route('**/create', async (route) => {
        if (route.request().method() === 'POST') await released;
        await route.continue();
      });
      await generate.click();
      const progress = page.getByRole('progressbar', { name: 'Generation progress' });
      await progress.waitFor();
      expect(await overlapsBanner(page, progress)).toBe(false);
      release();

      await page.getByRole('heading', { name: 'Generated Cards' }).waitFor({ timeout: 30_000 });
      const save = page.getByRole('button', { name: /Save Selected Cards/ });
      await save.scrollIntoViewIfNeeded();
      expect(await overlapsBanner(page, save)).toBe(false);
      await page.context().close();
    },
  );
});
