import type { DeckStats, HistoryResponse } from '@flashcards/shared/api-types';
import { fillMessage, messages } from '@flashcards/shared/messages';
import { useDeferredValue } from 'react';
import { useSearchParams } from 'react-router';
import { StatsList } from '../../components/stats-list';
import { errorDetail } from '../../lib/api-client';
import { useDeckStats, useDecks } from '../../lib/decks-api';
import { PersonalizePanel } from './personalize-panel';
import { useForecast, useHistory } from './stats-api';
import { BarChart, chartColours, Heatmap, heatShades } from './stats-charts';
import { heatCells, monthTotals, percent, shortDate } from './stats-figures';
import { StatsTable } from './stats-table';
import './stats.css';
import { DeckSelect } from '../../components/deck-select';
import { Notice } from '../../components/notice';

/** /stats: the year of reviews, the forecast, retention, streak, reviews per day, cards by state; all decks or one. */
export function StatsScreen() {
  const [params, setParams] = useSearchParams();
  const deckId = params.get('deck_id') ?? undefined;
  const decks = useDecks();
  const deck = decks.data?.find((item) => item._id === deckId);

  return (
    <div className="stats">
      <h1>{messages.statsTitle}</h1>
      <DeckSelect
        fieldClassName="stats__deck"
        decks={decks.data ?? []}
        value={deckId ?? ''}
        onValue={(id) => setParams(id ? { deck_id: id } : {})}
        emptyOption={messages.statsAllDecks}
      />
      <StatsBody deckId={deckId} deckName={deck?.name} />
      <section className="stats__section" aria-labelledby="personalize-heading">
        <h2 id="personalize-heading">{messages.personalizeTitle}</h2>
        <PersonalizePanel />
      </section>
    </div>
  );
}

function StatsBody({ deckId, deckName }: { deckId: string | undefined; deckName: string | undefined }) {
  const history = useHistory(deckId);
  const forecast = useForecast(deckId);
  const counts = useDeckStats(deckId);
  // The figures render in a transition, which React splits into short slices: the page stays responsive (no long
  // task) while a year of reviews, two charts and three tables are built.
  const historyData = useDeferredValue(history.data);
  const forecastData = useDeferredValue(forecast.data);

  if (history.isError || forecast.isError) {
    return <Notice tone="error">{errorDetail(history.error ?? forecast.error, messages.statsLoadFailed)}</Notice>;
  }
  if (!historyData || !forecastData) return <StatsSkeleton />;
  const scope = deckName ? `in ${deckName}` : 'in all decks';

  return (
    <>
      <Summary history={historyData} />
      <YearSection history={historyData} scope={scope} />
      <section className="stats__section" aria-labelledby="forecast-heading">
        <h2 id="forecast-heading">Due in the next 30 days</h2>
        <BarChart
          label={`Bar chart of cards due per day for the next 30 days ${scope}; the table below lists the numbers.`}
          labels={forecastData.days.map((day, index) => (index === 0 ? 'Today' : shortDate(day.date)))}
          series={[{ label: 'Due', values: forecastData.days.map((day) => day.due), colour: chartColours.due }]}
        />
        <StatsTable
          summary="Show the forecast as a table"
          caption="Cards due per day (today includes overdue cards)"
          columns={['Day', 'Due']}
          rows={forecastData.days}
          rowKey={(day) => day.date}
          cells={(day, index) => [index === 0 ? `Today (${shortDate(day.date)})` : shortDate(day.date), day.due]}
        />
      </section>
      <RecentSection history={historyData} scope={scope} />
      <section className="stats__section" aria-labelledby="states-heading">
        <h2 id="states-heading">Cards by state</h2>
        {counts.data ? <StateList stats={counts.data} /> : <p>{messages.loading}</p>}
      </section>
    </>
  );
}

/** Each section's heading, its kind of drawing and its lines of text, for the loading frame. */
const skeletonSections = [
  { heading: 'At a glance', chart: null, lines: 4 },
  { heading: 'Reviews in the last year', chart: 'heatmap', lines: 3 },
  { heading: 'Due in the next 30 days', chart: 'bar', lines: 1 },
  { heading: 'Reviews per day, last 30 days', chart: 'bar', lines: 3 },
  { heading: 'Cards by state', chart: null, lines: 2 },
] as const;

/**
 * The page's frame before the figures arrive: the sections with their headings, chart boxes of the charts' size and
 * grey lines where the text goes, so that the figures fill in without moving what is on screen.
 */
function StatsSkeleton() {
  return (
    <>
      <p className="visually-hidden" role="status">
        {messages.loading}
      </p>
      {skeletonSections.map((section) => (
        <section key={section.heading} className="stats__section stats__section--loading" aria-hidden="true">
          <h2>{section.heading}</h2>
          {Array.from({ length: section.lines }, (_, line) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: identical placeholder lines.
            <span key={line} className="page-skeleton__bar stats__skeleton-line" />
          ))}
          {section.chart && (
            <div className={section.chart === 'heatmap' ? 'stats-chart stats-chart--heatmap' : 'stats-chart'} />
          )}
        </section>
      ))}
    </>
  );
}

function Summary({ history }: { history: HistoryResponse }) {
  const today = history.days[history.days.length - 1];
  return (
    <section className="stats__section" aria-labelledby="summary-heading">
      <h2 id="summary-heading">At a glance</h2>
      <StatsList
        entries={[
          ['Streak', history.streak_days > 0 ? fillMessage(messages.statsStreak, { n: history.streak_days }) : 'None'],
          ['Reviewed today', today?.reviews ?? 0],
          [
            'Retention, last 30 days',
            history.retention_30d === null ? 'No data yet' : `${Math.round(history.retention_30d * 100)}%`,
          ],
          ['Long-term reviews, 30 days', history.reviews_30d],
        ]}
      />
      <p>
        {history.streak_days > 0
          ? fillMessage(messages.statsStreakSentence, { n: history.streak_days })
          : messages.statsNoStreak}{' '}
        {history.retention_30d === null
          ? messages.statsRetentionNone
          : fillMessage(messages.statsRetention, {
              percent: Math.round(history.retention_30d * 100),
              n: history.reviews_30d,
            })}
      </p>
    </section>
  );
}

function YearSection({ history, scope }: { history: HistoryResponse; scope: string }) {
  const months = monthTotals(history.days);
  const total = history.days.reduce((sum, day) => sum + day.reviews, 0);
  const studied = history.days.filter((day) => day.reviews > 0).length;
  return (
    <section className="stats__section" aria-labelledby="year-heading">
      <h2 id="year-heading">Reviews in the last year</h2>
      <p>
        {total} reviews on {studied} of the last {history.days.length} days {scope} (days run from 04:00 to 04:00 in{' '}
        {history.time_zone}).
      </p>
      <Heatmap
        cells={heatCells(history.days)}
        label={`Calendar heatmap: ${total} reviews on ${studied} days of the last year ${scope}; darker squares are busier days. The table below gives the totals per month.`}
      />
      <p className="stats-legend" aria-hidden="true">
        Fewer
        {heatShades.map((shade) => (
          <span key={shade} className="stats-legend__swatch" style={{ background: shade }} />
        ))}
        More
      </p>
      <StatsTable
        summary="Show the year as a table"
        caption="Reviews per month"
        columns={['Month', 'Reviews', 'Days studied']}
        rows={months}
        rowKey={(month) => month.month}
        cells={(month) => [month.label, month.reviews, month.daysStudied]}
      />
    </section>
  );
}

function RecentSection({ history, scope }: { history: HistoryResponse; scope: string }) {
  const last30 = history.days.slice(-30);
  const reviews = last30.reduce((sum, day) => sum + day.reviews, 0);
  const passed = last30.reduce((sum, day) => sum + day.passed, 0);
  return (
    <section className="stats__section" aria-labelledby="recent-heading">
      <h2 id="recent-heading">Reviews per day, last 30 days</h2>
      <p>
        {reviews} reviews, {percent(passed, reviews)}% answered “Know it”.
      </p>
      <BarChart
        stacked
        label={`Stacked bar chart of reviews per day over the last 30 days ${scope}, known and not known; the table below lists the numbers.`}
        labels={last30.map((day) => shortDate(day.date))}
        series={[
          { label: 'Know it', values: last30.map((day) => day.passed), colour: chartColours.passed },
          { label: 'Don’t know', values: last30.map((day) => day.reviews - day.passed), colour: chartColours.failed },
        ]}
      />
      <p className="stats-legend" aria-hidden="true">
        <span className="stats-legend__swatch" style={{ background: chartColours.passed }} /> Know it{' '}
        <span className="stats-legend__swatch" style={{ background: chartColours.failed }} /> Don’t know
      </p>
      <StatsTable
        summary="Show the last 30 days as a table"
        caption="Reviews per day"
        columns={['Day', 'Reviews', 'Know it', 'New cards']}
        rows={last30}
        rowKey={(day) => day.date}
        cells={(day) => [shortDate(day.date), day.reviews, day.passed, day.new_cards]}
      />
    </section>
  );
}

function StateList({ stats }: { stats: DeckStats }) {
  const review = stats.total_cards - stats.new_cards - stats.learning_cards;
  return (
    <StatsList
      entries={[
        ['New', stats.new_cards],
        ['Learning', stats.learning_cards],
        ['Long-term', review],
        ['Due now', stats.due_cards],
        ['Total', stats.total_cards],
      ]}
    />
  );
}
