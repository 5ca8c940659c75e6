/// <reference types="office-js" />
import { REPORT_FORMATS, type ReportFormat } from '../../contract/host-pane';
import { CURRENCIES, type Currency } from '../../../src/wire';
import { installBrowserRuntime } from '../shared/browser-runtime';
import { browserStorage } from '../shared/page-storage';
import { tokenBroker } from '../shared/sign-in';
import { insertMarketDashboard } from './dashboard';
import { startOfflineSetting } from './offline-setting';
import { showStorageNotice } from './storage-notice';
import { registerPageCache } from './offline-pages';
import { ADDIN_RELEASE } from '../shared/release';
import { VERSION_META } from '../../contract/page-cache';
import { exportSelection, offerDownload } from './export-report';
import { clearHostCache, fetchStatus, type HostStatus } from './host-api';
import { valueSelection } from './value-selection';
import { wireRefreshBudget, wireSharing } from './workbook-commands';

const STATUS_INTERVAL_MS = 30_000;

const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;

function say(text: string, kind: 'ok' | 'error' | '' = ''): void {
  const m = $('message');
  m.textContent = text;
  m.className = kind;
}

const count = (n: number | null) => (n === null ? 'unknown' : n.toLocaleString('en-US'));

export function renderStatus(s: HostStatus): void {
  $('status-service').textContent = `${s.service}${s.sandbox ? ' (test data)' : ''} — ${s.connected ? 'connected' : 'not connected'}`;
  $('status-tier').textContent = s.tier;
  $('status-minute').textContent = s.minute_limit === null ? count(s.minute_remaining) : `${count(s.minute_remaining)} of ${count(s.minute_limit)}`;
  $('status-day').textContent = s.day_limit === null ? count(s.day_remaining) : `${count(s.day_remaining)} of ${count(s.day_limit)}`;
  $('status-limits').textContent = s.limits_in_force;
  const problem = $('status-problem');
  // A user whose calls wait for their turn (fair share on the host) sees why.
  const waiting = s.user && s.user.waiting > 0 ? `${s.user.waiting} of your requests are waiting their turn: the firm's budget this minute is shared between everyone using SVC.` : undefined;
  const text = [s.problem, waiting].filter(Boolean).join(' ');
  problem.hidden = text === '';
  problem.textContent = text;
}

/** Who is signed in, or a sign-in button when nobody is; nothing when the host needs no sign-in. */
async function renderSignIn(): Promise<void> {
  const broker = await tokenBroker();
  if (!broker) return;
  $('sign-in').hidden = false;
  const token = await broker.silent();
  const user = token ? broker.user() : undefined;
  $('signed-in-as').textContent = user ? `Signed in as ${user.name}` : 'Not signed in: sign in with your work account to use SVC.';
  $('sign-in-button').hidden = user !== undefined;
}

async function refreshStatus(): Promise<void> {
  try {
    renderStatus(await fetchStatus());
  } catch (err) {
    $('status-service').textContent = 'not connected';
    const problem = $('status-problem');
    problem.hidden = false;
    problem.textContent = err instanceof Error ? err.message : String(err);
  }
}

function selected<T extends string>(id: string, allowed: readonly T[]): T {
  const v = $<HTMLSelectElement>(id).value as T;
  return allowed.includes(v) ? v : allowed[0]!;
}

/** Runs one button's work: the button is disabled meanwhile, the outcome is said in a sentence. */
function onClick(id: string, work: () => Promise<string>): void {
  const button = $<HTMLButtonElement>(id);
  button.addEventListener('click', () => {
    if (button.disabled) return;
    button.disabled = true;
    say('Working…');
    work()
      .then((text) => say(text, 'ok'))
      .catch((err: unknown) => say(err instanceof Error ? err.message : String(err), 'error'))
      .finally(() => {
        button.disabled = false;
        void refreshStatus();
      });
  });
}

export function startTaskpane(): void {
  const runtime = installBrowserRuntime();
  const signal = new AbortController().signal;
  const currency = () => selected<Currency>('currency', CURRENCIES);

  onClick('value-selection', async () => {
    const progress = $<HTMLProgressElement>('value-progress');
    progress.hidden = false;
    const r = await valueSelection(runtime, currency(), (done, total) => {
      progress.max = Math.max(total, 1);
      progress.value = done;
      say(`Valued ${done} of ${total} holdings…`);
    }, signal);
    return `Valued ${r.valued} holding${r.valued === 1 ? '' : 's'}${r.failed ? `; ${r.failed} could not be valued (see the status column)` : ''}. Results in ${r.written}.`;
  });
  onClick('export-report', async () => {
    const format = selected<ReportFormat>('report-format', REPORT_FORMATS);
    const file = await exportSelection(format, currency());
    offerDownload(file, $<HTMLAnchorElement>('report-link'));
    return `Report ready: ${file.name} (${file.holdings} holdings${file.problems ? `, ${file.problems} row${file.problems === 1 ? '' : 's'} with problems listed in the report` : ''}).`;
  });
  onClick('insert-dashboard', async () => {
    const r = await insertMarketDashboard(runtime, signal);
    return `Inserted the sheet "${r.sheet}" (${r.alerts} active alert${r.alerts === 1 ? '' : 's'}).`;
  });
  // Refresh values shows its budget first and asks above the user's threshold (workbook-commands.ts).
  wireRefreshBudget(onClick, async () => {
    runtime.refresh();
    await clearHostCache();
    await Excel.run(async (ctx) => {
      ctx.workbook.application.calculate(Excel.CalculationType.full);
      await ctx.sync();
    });
    return 'Cached values cleared; every SVC cell is being recalculated.';
  });
  wireSharing(onClick);
  onClick('sign-in-button', async () => {
    const broker = await tokenBroker();
    await broker?.interactive();
    await renderSignIn();
    runtime.refresh();
    return 'Signed in. Recalculate to value the cells that asked you to sign in.';
  });
  $('status-refresh').addEventListener('click', () => void refreshStatus());
  void renderSignIn().then(() => refreshStatus());
  // The budget moves as cells calculate; the host answers this from its limiter, spending no call.
  setInterval(() => void refreshStatus(), STATUS_INTERVAL_MS);
}

// The offline section uses no Excel API, so it does not wait for Office.onReady: it matters most when the host is unreachable.
void startOfflineSetting(installBrowserRuntime(), { toggle: $<HTMLInputElement>('use-last-known'), count: $('stale-count') });
// Said as soon as the store is chosen: a user whose browser refuses storage learns why nothing is kept.
void showStorageNotice(browserStorage().keeping(), $('storage-notice'));
// Keeps this version's pages for the next open without the host; a refusal changes nothing else.
void registerPageCache();
// Which build is running, for support (the version is the page's, stamped by addin:build).
$('addin-version').textContent = `Version ${ADDIN_RELEASE} (build ${document.querySelector<HTMLMetaElement>(`meta[name="${VERSION_META}"]`)?.content ?? 'unknown'})`;
Office.onReady(() => startTaskpane());
