import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ServiceClient } from '../../src/client';
import { startSandbox, DEMO_ACCOUNTS, type RunningSandbox } from '../../src/sandbox';
import type { BatchValuationItem } from '../../src/wire';
import { AddinRuntime, setRuntime } from '../../addin/src/shared/runtime';
import { clientBackend } from '../../addin/src/shared/client-backend';
import { holdingForAssetId, requestForAssetId } from '../../addin/src/shared/holdings';
import './custom-functions-globals';
import type { ExcelError } from './custom-functions-globals';
import * as F from '../../addin/src/functions/functions';
import { realCatalogueIds } from '../../fixtures/issued-ids';
import type { SandboxLogLine } from './stack';

/**
 * =SVC.COVER(asset_id, insured_value, [currency]) against the sandbox: the gap is the high
 * estimate less the insured value (computed here from the service's own answer, not through
 * the add-in's code), the status is in the value's card where Excel shows cards on a number
 * (ExcelApi 1.19), and its valuations coalesce with SVC.MIDVALUE's into the same batch calls.
 */
const invocation = () => ({}) as CustomFunctions.CancelableInvocation;

const account = DEMO_ACCOUNTS.find((a) => a.tier === 'enterprise')!;
let sandbox: RunningSandbox;
let dir: string;
let logFile: string;
let ids: string[];
let expected: Map<string, BatchValuationItem>;
let runtimes = 0;

async function batchCalls(): Promise<SandboxLogLine[]> {
  const text = await readFile(logFile, 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as SandboxLogLine)
    .filter((l) => l.path === '/v1/valuations/batch');
}

/** A fresh runtime (its own cache and rate-gate key), so each test's calls are its own. */
function freshRuntime(): void {
  const client = new ServiceClient({ baseUrl: sandbox.url, clientId: account.client_id, clientSecret: account.client_secret, rateLimitKey: `cover-${runtimes++}`, maxRetries: 0 });
  setRuntime(new AddinRuntime(clientBackend(client)));
}

/** Excel with ExcelApi up to `level` (cards on numbers from 1.19), as Office.context.requirements answers. */
function excelAt(level: string | undefined, displayLanguage = 'en-US'): void {
  const [wantMajor, wantMinor] = (level ?? '0.0').split('.').map(Number) as [number, number];
  (globalThis as unknown as { Office?: unknown }).Office =
    level === undefined
      ? undefined
      : {
          context: {
            displayLanguage,
            requirements: {
              isSetSupported: (set: string, version: string) => {
                const [major, minor] = version.split('.').map(Number) as [number, number];
                return set === 'ExcelApi' && (major < wantMajor || (major === wantMajor && minor <= wantMinor));
              },
            },
          },
        };
}

/** The status as the issue defines it, from the service's answer and the insured value (tolerance 10 %, over above 1.25 × high). */
function statusOf(insured: number, high: number): string {
  if (insured < high * 0.9) return 'under-insured';
  if (insured > high * 1.25) return 'over-insured';
  return 'covered';
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'svc-cover-'));
  logFile = path.join(dir, 'sandbox.jsonl');
  sandbox = await startSandbox({ port: 0, quiet: true, logFile });
  ids = (await realCatalogueIds(sandbox.url, account, 12)).slice(0, 6);
  const direct = new ServiceClient({ baseUrl: sandbox.url, clientId: account.client_id, clientSecret: account.client_secret, rateLimitKey: 'cover-expected' });
  const answers = await direct.valueAll(ids.map((id) => requestForAssetId(holdingForAssetId('asset', id))));
  expected = new Map(answers.map((a, i) => [ids[i]!, a.ok ? a.value : (undefined as never)]));
});

afterEach(() => excelAt(undefined));

afterAll(async () => {
  setRuntime(undefined);
  await sandbox.close();
  await rm(dir, { recursive: true, force: true });
});

describe('SVC.COVER', () => {
  it('returns the gap (high − insured) for each cell, under, over and covered, and coalesces with SVC.MIDVALUE into one batch call', async () => {
    freshRuntime();
    const before = (await batchCalls()).length;
    // Per asset an insured value that makes it under-insured, covered or over-insured by the rule.
    const insured = ids.map((id, i) => {
      const high = expected.get(id)!.estimated_value.high!;
      return Math.round([0.5, 1, 1.5][i % 3]! * high);
    });
    const cells = await Promise.all([...ids.map((id, i) => F.cover(id, insured[i]!, null as never, invocation())), ...ids.map((id) => F.midValue(id, null as never, invocation()))]);
    const calls = (await batchCalls()).slice(before);
    // Six COVER cells and six MIDVALUE cells over six assets: one batch call of six items.
    expect(calls.map((c) => c.items)).toEqual([ids.length]);
    for (const [i, id] of ids.entries()) {
      const high = expected.get(id)!.estimated_value.high!;
      const cell = cells[i] as { type: string; basicValue: number; numberFormat: string };
      // No Office here (before cards): the gap alone, currency-formatted.
      expect(cell).toEqual({ type: 'FormattedNumber', basicValue: Math.round((high - insured[i]!) * 100) / 100, numberFormat: '[$$-en-US]#,##0' });
      expect((cells[ids.length + i] as { basicValue: number }).basicValue).toBe(expected.get(id)!.estimated_value.mid);
    }
    expect(new Set(ids.map((id, i) => statusOf(insured[i]!, expected.get(id)!.estimated_value.high!)))).toEqual(new Set(['under-insured', 'covered', 'over-insured']));
  });

  it('shows the status in the value\'s card where Excel has cards on numbers (ExcelApi 1.19), in Excel\'s language; the gap alone before', async () => {
    const id = ids[0]!;
    const high = expected.get(id)!.estimated_value.high!;
    const insured = Math.round(high * 0.5);
    freshRuntime();
    excelAt('1.19', 'de-DE');
    const card = (await F.cover(id, insured, 'USD', invocation())) as Excel.DoubleCellValue;
    expect(card.type).toBe('Double');
    expect(card.basicValue).toBe(Math.round((high - insured) * 100) / 100);
    expect(card.numberFormat).toContain('$');
    expect(card.properties!.Status).toEqual({ type: 'String', basicValue: statusOf(insured, high) });
    expect(card.properties!.Cover).toEqual({ type: 'String', basicValue: 'Unterversichert' });
    expect(card.properties!.Insured).toMatchObject({ basicValue: insured });
    expect(card.properties!.Replacement).toMatchObject({ basicValue: high });
    expect(card.properties!['Asset id']).toEqual({ type: 'String', basicValue: id });
    expect(card.layouts!.card!.title).toEqual({ property: 'Cover' });
    // ExcelApi 1.16–1.18 shows cards for entities but not on numbers: the gap, with no card to carry the status.
    excelAt('1.18');
    const plain = (await F.cover(id, insured, 'USD', invocation())) as { type: string; basicValue: number };
    expect(plain).toMatchObject({ type: 'FormattedNumber', basicValue: card.basicValue });
  });

  it('refuses a missing or non-positive insured value naming the argument, without a call', async () => {
    freshRuntime();
    const before = (await batchCalls()).length;
    for (const bad of [null, '', -5, 'lots']) {
      const err = await F.cover(ids[0]!, bad as never, null as never, invocation()).then(
        () => undefined,
        (e: ExcelError) => e,
      );
      expect(err, String(bad)).toMatchObject({ code: '#VALUE!', message: expect.stringContaining('insured_value') });
    }
    expect((await batchCalls()).length).toBe(before);
  });
});
