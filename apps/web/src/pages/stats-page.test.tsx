import type { HistoryResponse, SchedulingInfo } from '@flashcards/shared/api-types';
import { messages } from '@flashcards/shared/messages';
import { serverMessages } from '@flashcards/shared/server-messages';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import { type fakeServer, json } from '../../test/fake-server';
import { renderApp, signedInServer } from '../../test/render-app';
import { improvement, monthTotals } from '../features/stats/stats-figures';

const deck = {
  _id: '65a1b2c3d4e5f6a7b8c9d0a1',
  name: 'Biology',
  daily_new_card_limit: 20,
  card_count: 3,
  created_at: '',
  desired_retention: 0.9,
};

function historyOf(days: number): HistoryResponse {
  const start = Date.parse('2026-11-23T00:00:00Z') - (days - 1) * 86_400_000;
  return {
    time_zone: 'Europe/Paris',
    days: Array.from({ length: days }, (_, index) => ({
      date: new Date(start + index * 86_400_000).toISOString().slice(0, 10),
      reviews: index >= days - 3 ? 10 : 0,
      passed: index >= days - 3 ? 8 : 0,
      new_cards: index >= days - 3 ? 2 : 0,
    })),
    streak_days: 3,
    retention_30d: 0.85,
    reviews_30d: 20,
  };
}

const forecast = {
  time_zone: 'Europe/Paris',
  days: Array.from({ length: 30 }, (_, index) => ({
    date: new Date(Date.parse('2026-11-23T00:00:00Z') + index * 86_400_000).toISOString().slice(0, 10),
    due: index === 0 ? 12 : index % 3,
  })),
};

const deckStats = {
  total_cards: 50,
  new_cards: 20,
  learning_cards: 5,
  due_cards: 7,
  cards_reviewed_today: 10,
  next_due_time: null,
};

const scheduling = (overrides: Partial<SchedulingInfo> = {}): SchedulingInfo => ({
  personalized: false,
  parameters: [0.2],
  optimized_at: null,
  reviews_used: 0,
  reviews_since: 640,
  min_reviews: 400,
  ...overrides,
});

function renderStats(path: string, routes: Parameters<typeof fakeServer>[0] = {}) {
  const server = signedInServer({
    'GET /decks': () => json(200, [deck]),
    'GET /stats/history': () => json(200, historyOf(365)),
    'GET /stats/forecast': () => json(200, forecast),
    'GET /decks/stats': () => json(200, deckStats),
    [`GET /decks/${deck._id}/stats`]: () => json(200, deckStats),
    'GET /scheduling': () => json(200, scheduling()),
    ...routes,
  });
  return { ...renderApp(path, server.fetch), calls: server.calls };
}

beforeEach(() => {
  localStorage.clear();
});

describe('/stats', () => {
  it('shows the streak, retention, a table for every chart, and cards by state', async () => {
    const { calls } = renderStats('/stats');
    expect(await screen.findByRole('heading', { level: 1, name: 'Statistics' })).toBeInTheDocument();
    await screen.findByText('3-day streak', { selector: 'dd' });
    expect(screen.getByText('85%')).toBeInTheDocument();
    expect(screen.getByText(/85% of 20 long-term reviews remembered in the last 30 days/)).toBeInTheDocument();
    expect(screen.getByText(/30 reviews on 3 of the last 365 days in all decks/)).toBeInTheDocument();
    // Each chart is an image with a text label, and its numbers are in a table.
    expect(screen.getAllByRole('img').map((image) => image.getAttribute('aria-label'))).toHaveLength(3);
    const forecastTable = screen.getByRole('table', { name: /Cards due per day/ });
    expect(within(forecastTable).getAllByRole('row')).toHaveLength(31);
    expect(within(forecastTable).getByRole('rowheader', { name: /^Today/ }).nextSibling?.textContent).toBe('12');
    expect(screen.getByRole('table', { name: 'Reviews per month' })).toBeInTheDocument();
    expect(within(screen.getByRole('table', { name: 'Reviews per day' })).getAllByRole('row')).toHaveLength(31);
    expect(screen.getByText('Long-term').nextSibling?.textContent).toBe('25');
    const history = calls.find((call) => call.path === '/stats/history');
    expect(history).toBeDefined();
    // Nav has the Statistics link.
    expect(screen.getByRole('link', { name: 'Statistics' })).toHaveAttribute('href', '/stats');
  });

  it('filters to the deck of ?deck_id and asks the server for that deck', async () => {
    const seen: string[] = [];
    renderStats(`/stats?deck_id=${deck._id}`, {
      'GET /stats/history': (call) => {
        seen.push(call.path);
        return json(200, historyOf(365));
      },
    });
    expect(await screen.findByText(/in Biology/)).toBeInTheDocument();
    expect((screen.getByLabelText('Deck') as HTMLSelectElement).value).toBe(deck._id);
    await waitFor(() => expect(seen).toHaveLength(1));
  });

  it('shows the server’s detail when the statistics cannot be loaded (a deck deleted meanwhile)', async () => {
    renderStats('/stats?deck_id=65a1b2c3d4e5f6a7b8c9d0ff', {
      'GET /stats/history': () => json(404, { detail: serverMessages.deckNotFound, code: 'deck_not_found' }),
      'GET /stats/forecast': () => json(404, { detail: serverMessages.deckNotFound, code: 'deck_not_found' }),
    });
    expect(await screen.findByRole('alert')).toHaveTextContent(serverMessages.deckNotFound);
  });
});

describe('Personalize scheduling', () => {
  it('says how many reviews there are, runs the fit, and explains the result in words', async () => {
    let info = scheduling();
    const { calls } = renderStats('/stats', {
      'GET /scheduling': () => json(200, info),
      'POST /scheduling/optimize': () => {
        info = scheduling({
          personalized: true,
          optimized_at: '2026-11-22T10:00:00.000Z',
          reviews_used: 640,
          reviews_since: 0,
        });
        return json(200, { parameters: [0.3], reviews_used: 640, log_loss_default: 0.4, log_loss_personal: 0.3 });
      },
    });
    expect(await screen.findByText('Personalizing will use all 640 of your reviews.')).toBeInTheDocument();
    expect(screen.getByText(messages.personalizeDefault)).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: messages.personalizeRun }));
    expect(
      await screen.findByText(
        'Prediction error on your reviews: 0.400 with the defaults, 0.300 with your own parameters (25% better).',
      ),
    ).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'POST' && call.path === '/scheduling/optimize')).toHaveLength(1);
    expect(await screen.findByRole('button', { name: messages.personalizeReset })).toBeInTheDocument();
  });

  it('disables the button under the minimum and says how many are needed', async () => {
    renderStats('/stats', { 'GET /scheduling': () => json(200, scheduling({ reviews_since: 120 })) });
    expect(await screen.findByText('You have 120 reviews. Personalizing needs at least 400.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: messages.personalizeRun })).toBeDisabled();
  });

  it('shows the server’s refusal', async () => {
    renderStats('/stats', {
      'POST /scheduling/optimize': () =>
        json(422, {
          detail: 'At least 400 reviews are needed to personalize scheduling (you have 399).',
          code: 'not_enough_reviews',
        }),
    });
    fireEvent.click(await screen.findByRole('button', { name: messages.personalizeRun }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'At least 400 reviews are needed to personalize scheduling (you have 399).',
    );
  });
});

describe('statistics figures', () => {
  it('totals reviews and days studied per month, and the improvement in percent', () => {
    const totals = monthTotals([
      { date: '2026-10-31', reviews: 4, passed: 4, new_cards: 0 },
      { date: '2026-11-01', reviews: 0, passed: 0, new_cards: 0 },
      { date: '2026-11-02', reviews: 3, passed: 1, new_cards: 1 },
    ]);
    expect(totals).toEqual([
      { month: '2026-10', label: 'October 2026', reviews: 4, daysStudied: 1 },
      { month: '2026-11', label: 'November 2026', reviews: 3, daysStudied: 1 },
    ]);
    expect(improvement(0.4, 0.3)).toBe(25);
    expect(improvement(0.4, 0.5)).toBe(-25);
  });
});
