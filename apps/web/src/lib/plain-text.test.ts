import { describe, expect, it } from 'vitest';
import { plainMath, plainTextOf } from './plain-text';

describe('plainTextOf', () => {
  it.each([
    ['What does $E=mc^2$ say about **mass**?', 'What does E=mc² say about mass?'],
    ['# Heading\n\n- item *one*\n- item `two`', 'Heading item one item two'],
    ['$$\\frac{a}{b} + \\sqrt{x^{2}}$$', 'a/b + √(x²)'],
    ['$\\alpha \\leq \\beta$, $\\pi r^2$', 'α ≤ β, π r²'],
    ['[a link](https://example.com) and ![a picture](x.png)', 'a link and a picture'],
    ['$\\text{speed} = \\dfrac{d}{t}$', 'speed = d/t'],
    ['snake_case and 2*3*4 stay', 'snake_case and 2*3*4 stay'],
    ['<b>not html</b> \\*escaped\\*', 'not html *escaped*'],
    ['$e^{i\\pi}$', 'e^(iπ)'],
    ['$\\constructor \\toString$', 'constructor toString'],
    ['', ''],
  ])('reads %j as %j', (markdown, plain) => {
    expect(plainTextOf(markdown)).toBe(plain);
  });

  it('stays linear on hostile input', () => {
    const hostile = `${'**a '.repeat(5000)}${'$'.repeat(3)}${'{'.repeat(5000)}\\frac`;
    const text = plainTextOf(hostile);
    expect(text.length).toBeGreaterThan(0);
    expect(plainMath('{'.repeat(10_000))).toBe('');
  });
});

describe('escaped marks', () => {
  it.each([
    ['costs \\$5 and \\$6', 'costs $5 and $6'],
    ['\\*\\*not bold\\*\\*', '**not bold**'],
  ])('keeps %j as text', (markdown, plain) => {
    expect(plainTextOf(markdown)).toBe(plain);
  });
});
