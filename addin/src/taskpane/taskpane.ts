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
import { addinTranslator } from '../shared/display-language';
import { localisePane } from './pane-text';

const STATUS_INTERVAL_MS = 30_000;

const $ = <T extends HTMLElement = HTMLElement>(id: string) => document.getElementById(id) as T;

function say(text: string, kind: 'ok' | 'error' | '' = ''): void {
  const m = $('message');
  m.textContent = text;
  m.className = kind;
}

// Words and numbers in Excel's display language (display-language.ts), read when used: known once Office is ready.
const tr = () => addinTranslator();
const count = (n: number | null) => (n === null ? tr().t('addin.unknown') : tr().number(n, 0));
const countOf = (remaining: number | null, limit: number | null) =>
  remaining === null || limit === null ? count(limit === null ? remaining : null) : tr().t('addin.remaining_of', { remaining, limit });

export function renderStatus(s: HostStatus): void {
  $('status-service').textContent = tr().t('addin.status_service', { service: s.service, sandbox: s.sandbox ? 'yes' : 'no', connected: s.connected ? 'yes' : 'no' });
  $('status-tier').textContent = s.tier;
  $('status-minute').textContent = countOf(s.minute_remaining, s.minute_limit);
  $('status-day').textContent = countOf(s.day_remaining, s.day_limit);
  $('status-limits').textContent = s.limits_in_force;
  const problem = $('status-problem');
  // A user whose calls wait for their turn (fair share on the host) sees why.
  const waiting = s.user && s.user.waiting > 0 ? tr().t('addin.waiting', { count: s.user.waiting }) : undefined;
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
  $('signed-in-as').textContent = user ? tr().t('addin.signed_in_as', { name: user.name }) : tr().t('addin.not_signed_in');
  $('sign-in-button').hidden = user !== undefined;
}

async function refreshStatus(): Promise<void> {
  try {
    renderStatus(await fetchStatus());
  } catch (err) {
    $('status-service').textContent = tr().t('addin.not_connected');
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
    say(tr().t('addin.working'));
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
      say(tr().t('addin.valued_progress', { done, total }));
    }, signal);
    return tr().t('addin.valued_done', { valued: r.valued, failed: r.failed, written: r.written });
  });
  onClick('export-report', async () => {
    const format = selected<ReportFormat>('report-format', REPORT_FORMATS);
    const file = await exportSelection(format, currency());
    offerDownload(file, $<HTMLAnchorElement>('report-link'));
    return tr().t('addin.report_ready', { file: file.name, holdings: file.holdings, problems: file.problems });
  });
  onClick('insert-dashboard', async () => {
    const r = await insertMarketDashboard(runtime, signal);
    return tr().t('addin.dashboard_inserted', { sheet: r.sheet, alerts: r.alerts });
  });
  // Refresh values shows its budget first and asks above the user's threshold (workbook-commands.ts).
  wireRefreshBudget(onClick, async () => {
    runtime.refresh();
    await clearHostCache();
    await Excel.run(async (ctx) => {
      ctx.workbook.application.calculate(Excel.CalculationType.full);
      await ctx.sync();
    });
    return tr().t('addin.refreshed');
  });
  wireSharing(onClick);
  onClick('sign-in-button', async () => {
    const broker = await tokenBroker();
    await broker?.interactive();
    await renderSignIn();
    runtime.refresh();
    return tr().t('addin.signed_in');
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
const showVersion = () => {
  const build = document.querySelector<HTMLMetaElement>(`meta[name="${VERSION_META}"]`)?.content ?? tr().t('addin.unknown');
  $('addin-version').textContent = tr().t('addin.version', { release: ADDIN_RELEASE, build });
};
// The pane's words in Excel's display language at once (office.js has read it from the page's host information), and again
// when Office is ready (Office.context.displayLanguage, the same language).
localisePane(document, tr());
showVersion();
Office.onReady(() => {
  localisePane(document, tr());
  showVersion();
  startTaskpane();
});
