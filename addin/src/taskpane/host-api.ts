import type { ReportFormat, ConnectionStatus as HostStatus } from '../../contract/host-pane';
import type { Currency } from '../../../src/wire';
import type { AccountBudget } from '../../contract/refresh-budget';
import { hostConnection } from '../shared/host-connection';
import { signInHeaders } from '../shared/sign-in';
import { browserStorage } from '../shared/page-storage';
import { addinTranslator, displayLanguageHeader } from '../shared/display-language';

export type { HostStatus };

function connection() {
  return hostConnection(window.location, browserStorage().page('sessionStorage'));
}

/** The error sentence of a host answer that is not 2xx. */
async function problemOf(res: Response): Promise<string> {
  try {
    const body = (await res.json()) as { error?: { message?: string } };
    if (body.error?.message) return body.error.message;
  } catch {
    // not JSON
  }
  return addinTranslator().t('addin.host_answered', { status: String(res.status) });
}

async function hostFetch(path: string, init: RequestInit = {}, accept: number[] = []): Promise<Response> {
  const { headers } = connection();
  // The user's sign-in when the host uses Entra ID; without one this throws "Sign in to SVC in the task pane."
  const signIn = await signInHeaders();
  let res: Response;
  try {
    // The host says its own sentences in the pane's language (Excel's, not the browser's): docs/decisions.md.
    res = await fetch(path, { ...init, headers: { ...headers, ...displayLanguageHeader(), ...signIn, ...(init.headers as Record<string, string> | undefined) }, credentials: 'omit' });
  } catch {
    throw new Error(addinTranslator().t('addin.host_unreachable'));
  }
  if (!res.ok && !accept.includes(res.status)) throw new Error(await problemOf(res));
  return res;
}

export async function fetchStatus(): Promise<HostStatus> {
  return (await (await hostFetch('/addin/status')).json()) as HostStatus;
}

/** The account's pace and today's budget, for the estimate before a refresh (spends no call). */
export async function fetchBudget(): Promise<AccountBudget> {
  return (await (await hostFetch('/addin/budget')).json()) as AccountBudget;
}

/**
 * Clears the host's shared cache too, so the next values come fresh from the service. The host
 * clears it at most once per 30 s for everyone: a 429 means it was cleared moments ago, which is
 * as good, so the pane recalculates all the same.
 */
export async function clearHostCache(): Promise<'cleared' | 'cleared-recently'> {
  const res = await hostFetch('/addin/refresh', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }, [429]);
  return res.status === 429 ? 'cleared-recently' : 'cleared';
}

export interface ExportedFile {
  name: string;
  bytes: Blob;
  holdings: number;
  problems: number;
}

/** The host builds the report with the report job's code and answers with the file. */
export async function exportReport(request: { format: ReportFormat; grid: unknown[][]; sheet: string; first_row: number; currency: Currency; portfolio_name: string }): Promise<ExportedFile> {
  const res = await hostFetch('/addin/report', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(request) });
  const disposition = res.headers.get('content-disposition') ?? '';
  // filename* (RFC 5987) carries the name in the portfolio's own script; filename= is its ASCII fallback.
  const encoded = /filename\*=UTF-8''([^;\s]+)/i.exec(disposition)?.[1];
  const name = (encoded ? decodeURIComponent(encoded) : undefined) ?? /filename="([^"]+)"/.exec(disposition)?.[1] ?? `report.${request.format}`;
  return { name, bytes: await res.blob(), holdings: Number(res.headers.get('x-report-holdings') ?? 0), problems: Number(res.headers.get('x-report-problems') ?? 0) };
}
