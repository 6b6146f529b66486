/**
 * Classes end to end (issue 38): a teacher creates a class and assigns a deck in the browser; a student, in a
 * second browser context at phone width, follows the join link, signs up, joins and studies; the teacher edits a
 * card and the student's copy shows the edit, read-only; the class page shows the student's reviews. Axe checks
 * every class screen on the way.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createDeck, saveCards, signUpByApi } from './support/api';
import { seriousViolations } from './support/axe';
import { useBrowser } from './support/browser';
import { baseUrl, newPage, PASSWORD, signInWithToken, uniqueEmail } from './support/pages';

const browser = useBrowser();

const cards = [
  { question: 'What is the powerhouse of the cell?', answer: 'The mitochondrion.' },
  { question: 'What holds the genetic material?', answer: 'The nucleus.' },
];

/** The question on the review card now. */
async function currentQuestion(page: Page): Promise<string> {
  const card = page.getByTestId('swipe-card');
  await card.getByText('Question', { exact: true }).waitFor();
  return (await card.locator('.card-markdown').first().innerText()).trim();
}

describe('a class', () => {
  it('brings the teacher’s deck to a student who joins by link, keeps it in step, and shows the teacher the reviews', async () => {
    const stamp = Date.now().toString(36);
    const teacherPage = await newPage(browser());
    const request = teacherPage.request;
    const teacher = await signUpByApi(request, 'teacher', 'Teacher Tess');
    const deckName = `Cells ${stamp}`;
    const deckId = await createDeck(request, teacher.auth, deckName);
    await saveCards(request, teacher.auth, deckId, cards);

    // The teacher creates the class from the top bar's Classes and gets its join code and link.
    await signInWithToken(teacherPage, teacher.token, '/review');
    await teacherPage.getByRole('heading', { name: deckName, level: 2 }).waitFor();
    await teacherPage.getByRole('link', { name: 'Classes' }).click();
    await teacherPage.getByRole('heading', { name: 'Classes', level: 1 }).waitFor();
    await teacherPage.getByText('You are not in any class yet.', { exact: false }).waitFor();
    expect(await seriousViolations(teacherPage)).toEqual([]);
    const className = `Biology ${stamp}`;
    await teacherPage.getByLabel('Class name').fill(className);
    await teacherPage.getByRole('button', { name: 'Create class' }).click();
    await teacherPage.getByText(`Class “${className}” created.`, { exact: false }).waitFor();
    const link = await teacherPage.getByLabel('Join link', { exact: true }).inputValue();
    const code = await teacherPage.getByLabel('Join code', { exact: true }).inputValue();
    expect(link).toBe(`${baseUrl()}/join/${code}`);
    expect(await seriousViolations(teacherPage)).toEqual([]);

    // Assign deck from the deck list.
    await teacherPage.getByRole('link', { name: 'Review' }).click();
    await teacherPage.getByRole('button', { name: `Assign to class: ${deckName}` }).click();
    const assign = teacherPage.getByRole('dialog', { name: `Assign deck: ${deckName}` });
    await assign.getByLabel('Class').selectOption({ label: className });
    expect(await seriousViolations(teacherPage)).toEqual([]);
    await assign.getByRole('button', { name: 'Assign deck' }).click();
    await assign.getByText(`“${deckName}” is assigned to “${className}”.`, { exact: false }).waitFor();
    await teacherPage.keyboard.press('Escape');

    // A student, signed out and on a phone, follows the link: what the teacher will see comes first, then sign-up.
    const studentPage = await newPage(browser(), { width: 390, height: 844 });
    await studentPage.goto(`/join/${code}`);
    await studentPage.getByRole('heading', { name: 'Join a class', level: 1 }).waitFor();
    await studentPage.getByRole('heading', { name: 'What your teacher will see' }).waitFor();
    expect(await seriousViolations(studentPage)).toEqual([]);
    await studentPage.getByRole('button', { name: 'Sign in to join' }).click();
    await studentPage.waitForURL('**/login');
    await studentPage.getByRole('tab', { name: 'Sign Up' }).click();
    await studentPage.getByLabel('Name').fill('Student Sam');
    await studentPage.getByLabel('Email').fill(uniqueEmail('student'));
    await studentPage.getByLabel('Password').fill(PASSWORD);
    await studentPage.getByRole('button', { name: 'Sign Up' }).click();

    // Back on the join link, the join runs by itself and the class page opens: class, teacher, decks.
    await studentPage.waitForURL(/\/my-classes\/[^/]+$/, { timeout: 20_000 });
    const classPath = new URL(studentPage.url()).pathname;
    await studentPage.getByRole('heading', { name: className, level: 1 }).waitFor();
    await studentPage.getByText('Teacher: Teacher Tess').waitFor();
    expect(await studentPage.getByRole('region', { name: 'Students' }).count()).toBe(0);
    expect(await seriousViolations(studentPage)).toEqual([]);
    expect(await studentPage.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

    // The student studies the class deck: one "don't know", one "know".
    await studentPage.getByRole('button', { name: `Study: ${deckName}` }).click();
    const firstQuestion = await currentQuestion(studentPage);
    expect(cards.map((card) => card.question)).toContain(firstQuestion);
    await studentPage.keyboard.press('Space');
    await studentPage.keyboard.press('a');
    await studentPage.locator('[role="progressbar"][aria-valuenow="1"]').waitFor();
    await currentQuestion(studentPage);
    await studentPage.keyboard.press('Space');
    await studentPage.keyboard.press('d');
    await studentPage.locator('[role="progressbar"][aria-valuenow="2"]').waitFor();
    await studentPage.getByRole('button', { name: 'Back to Decks' }).click();
    await studentPage.getByText(`From class ${className}`).waitFor();
    expect(await seriousViolations(studentPage)).toEqual([]);

    // The teacher edits a card of the deck in its Cards tab.
    await teacherPage.getByRole('button', { name: `Settings: ${deckName}` }).click();
    const settings = teacherPage.getByRole('dialog', { name: `Deck settings: ${deckName}` });
    await settings.getByRole('tab', { name: 'Cards' }).click();
    await settings.getByRole('button', { name: 'Edit card 1' }).click();
    const editor = settings.getByRole('form', { name: 'Edit card' });
    await editor.getByLabel('Answer').fill('The mitochondrion, where respiration happens.');
    await editor.getByRole('button', { name: 'Save card' }).click();
    await editor.waitFor({ state: 'detached' });
    await teacherPage.keyboard.press('Escape');

    // The student's next load shows the edit, in a copy whose cards offer no Add, Edit or Delete.
    // Loaded afresh from another page: a reload would keep the history state that opened the study session.
    await studentPage.goto('/my-classes');
    await studentPage.goto('/review');
    await studentPage.getByRole('button', { name: `Settings: ${deckName}` }).click();
    const copy = studentPage.getByRole('dialog', { name: `Deck settings: ${deckName}` });
    await copy.getByRole('tab', { name: 'Cards' }).click();
    await copy.getByText('The mitochondrion, where respiration happens.').waitFor();
    expect(await copy.getByRole('button', { name: /^(Edit|Delete) card/ }).count()).toBe(0);
    expect(await copy.getByRole('button', { name: 'Add Card' }).count()).toBe(0);
    expect(await seriousViolations(studentPage)).toEqual([]);
    await studentPage.keyboard.press('Escape');

    // The teacher's class page shows the student's two reviews and the cards, the failed one first.
    await teacherPage.goto(classPath);
    await teacherPage.getByRole('heading', { name: className, level: 1 }).waitFor();
    const students = teacherPage.getByRole('region', { name: 'Students' });
    const row = students.getByRole('row', { name: /Student Sam/ });
    await row.waitFor();
    expect((await row.locator('td').allInnerTexts()).slice(0, 2)).toEqual(['2', '2']);
    const hardest = teacherPage.getByRole('region', { name: 'Cards, hardest first' }).locator('tbody tr').first();
    expect(await hardest.locator('th').innerText()).toBe(firstQuestion);
    expect(await hardest.locator('td').allInnerTexts()).toEqual(['1', '1', '100%']);
    expect(await seriousViolations(teacherPage)).toEqual([]);
    // At phone width the page keeps to the screen: the wide tables scroll inside their own regions.
    await teacherPage.setViewportSize({ width: 390, height: 844 });
    expect(await teacherPage.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    expect(await seriousViolations(teacherPage)).toEqual([]);

    // The student's class page at phone width, and the student leaves (asked first); the copy stays, unlinked.
    await studentPage.goto(classPath);
    await studentPage.getByRole('button', { name: 'Leave class' }).click();
    const leave = studentPage.getByRole('dialog', { name: 'Leave class' });
    expect(await seriousViolations(studentPage)).toEqual([]);
    await leave.getByRole('button', { name: 'Leave class' }).click();
    await studentPage.waitForURL('**/my-classes');
    await studentPage.goto('/review');
    await studentPage.getByRole('heading', { name: deckName, level: 2 }).waitFor();
    expect(await studentPage.getByText(`From class ${className}`).count()).toBe(0);

    await studentPage.context().close();
    await teacherPage.context().close();
  });
});
