import { createHmac } from 'node:crypto';
import { appendFileSync, chmodSync, copyFileSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHECKPOINT_FILE, Checkpoint, CheckpointMismatch, describeDiscarded, readCheckpointState } from '../../reports/run/checkpoint';
import { CHECKPOINT_KEY_FILE } from '../../reports/run/checkpoint-mac';
import type { ItemResult } from '../../reports/run/results';

const valued = (mid: number): ItemResult => ({ ok: true, low: mid * 0.9, mid, high: mid * 1.1, currency: 'USD', confidence: 0.8, service_score: 70, momentum: 'positive', market_validated: true });

/** A checkpoint of two 50-holding chunks of portfolio "p", journaled as the job does it. */
async function twoChunks(dir: string): Promise<Checkpoint> {
  const cp = Checkpoint.fresh(dir, 'key-1', '2026-11-01T06:00:00.000Z');
  const state = cp.portfolio('p');
  for (const chunk of [[0, 49], [50, 99]]) {
    const indices = Array.from({ length: chunk[1]! - chunk[0]! + 1 }, (_, k) => chunk[0]! + k);
    for (const i of indices) state.valuations[i] = valued(1000 + i);
    await cp.recordValuations('p', indices);
  }
  return cp;
}

describe('the checkpoint journal', () => {
  it('appends one line per chunk and replays into the same state', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cp-'));
    const cp = await twoChunks(dir);
    const text = readFileSync(join(dir, CHECKPOINT_FILE), 'utf8');
    // header, the first save's snapshot (valuations + scores), then the second chunk appended
    expect(text.trim().split('\n')).toHaveLength(4);
    const state = await readCheckpointState(join(dir, CHECKPOINT_FILE));
    expect(state!.portfolios.p!.valuations).toEqual(cp.state.portfolios.p!.valuations);
    expect(state!.generated_at).toBe('2026-11-01T06:00:00.000Z');
    await cp.close();
  });

  it('ignores a last line torn by a crash: that chunk is simply valued again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cp-'));
    await (await twoChunks(dir)).close();
    appendFileSync(join(dir, CHECKPOINT_FILE), '{"p":"p","v":{"100":{"ok":tr');
    const cp = await Checkpoint.load(dir, 'key-1');
    const vals = cp!.portfolio('p').valuations;
    expect(vals.filter((v) => v !== null)).toHaveLength(100);
    expect(vals[100]).toBeUndefined();
    await cp!.close();
  });

  it('compacts on resume, leaves out a damaged middle line and refuses another run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cp-'));
    const cp = await twoChunks(dir);
    for (let k = 0; k < 20; k++) await cp.recordValuations('p', [k]);
    await cp.close();
    const before = statSync(join(dir, CHECKPOINT_FILE)).size;
    await (await Checkpoint.load(dir, 'key-1'))!.close();
    expect(statSync(join(dir, CHECKPOINT_FILE)).size).toBeLessThan(before);
    await expect(Checkpoint.load(dir, 'key-2')).rejects.toBeInstanceOf(CheckpointMismatch);

    const lines = readFileSync(join(dir, CHECKPOINT_FILE), 'utf8').trim().split('\n');
    const damaged = mkdtempSync(join(tmpdir(), 'cp-'));
    copyFileSync(join(dir, CHECKPOINT_KEY_FILE), join(damaged, CHECKPOINT_KEY_FILE));
    appendFileSync(join(damaged, CHECKPOINT_FILE), [lines[0], '{broken', ...lines.slice(1)].join('\n') + '\n');
    const loaded = (await Checkpoint.load(damaged, 'key-1'))!;
    expect(loaded.discarded).toEqual({ entries: 1, reasons: ['line 2: not JSON'] });
    expect(loaded.portfolio('p').valuations.filter((v) => v !== null)).toHaveLength(100);
    await loaded.close();
  });

  it('keeps its key beside it, mode 0600, a new one for each fresh run, and removes it with the checkpoint', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cp-'));
    const first = await twoChunks(dir);
    await first.close();
    const keyFile = join(dir, CHECKPOINT_KEY_FILE);
    expect(statSync(keyFile).mode & 0o777).toBe(0o600);
    const key = readFileSync(keyFile, 'utf8');
    expect(key.trim()).toMatch(/^[0-9a-f]{64}$/);
    const second = await twoChunks(dir);
    expect(readFileSync(keyFile, 'utf8')).not.toBe(key);
    await second.remove();
    expect(() => statSync(keyFile)).toThrow();
    expect(() => statSync(join(dir, CHECKPOINT_FILE))).toThrow();
  });
});

describe('the checkpoint journal with chunks landing together', () => {
  /** Twenty chunks of 50 recorded at once, in reverse order of their positions: as several chunks in flight land. */
  async function landedTogether(dir: string, opts: { firstAlone: boolean }): Promise<Checkpoint> {
    const cp = Checkpoint.fresh(dir, 'key-1', '2026-11-01T06:00:00.000Z');
    const state = cp.portfolio('p');
    const chunks = Array.from({ length: 20 }, (_, c) => Array.from({ length: 50 }, (_, k) => c * 50 + k)).reverse();
    if (opts.firstAlone) {
      // The first chunk writes the journal's head (the whole state so far); the other nineteen land together, one line each.
      const first = chunks.shift()!;
      for (const i of first) state.valuations[i] = valued(1000 + i);
      await cp.recordValuations('p', first);
    }
    await Promise.all(
      chunks.map((indices) => {
        for (const i of indices) state.valuations[i] = valued(1000 + i);
        return cp.recordValuations('p', indices);
      }),
    );
    await cp.close();
    return cp;
  }

  it('writes every chunk on a whole line of its own, whatever the order they land in', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cp-'));
    const cp = await landedTogether(dir, { firstAlone: false }); // the first write opens the journal while the others wait
    const lines = readFileSync(join(dir, CHECKPOINT_FILE), 'utf8').trim().split('\n');
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
    const state = await readCheckpointState(join(dir, CHECKPOINT_FILE));
    expect(state!.portfolios.p!.valuations).toEqual(cp.state.portfolios.p!.valuations);
    expect(state!.portfolios.p!.valuations.filter((v) => v !== null)).toHaveLength(1000);
  });

  it('survives a torn last line: only that chunk is lost', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cp-'));
    await landedTogether(dir, { firstAlone: true });
    const path = join(dir, CHECKPOINT_FILE);
    const text = readFileSync(path, 'utf8');
    const lastLine = text.trimEnd().split('\n').at(-1)!;
    const lost = Object.keys((JSON.parse(lastLine) as { v: Record<string, unknown> }).v).map(Number);
    writeFileSync(path, text.slice(0, text.length - Math.floor(lastLine.length / 2))); // a crash halfway through the last write
    const cp = await Checkpoint.load(dir, 'key-1');
    const vals = cp!.portfolio('p').valuations;
    expect(vals.filter((v) => v !== null && v !== undefined)).toHaveLength(950);
    for (const i of lost) expect(vals[i] ?? null).toBeNull();
    await cp!.close();
  });
});

describe('a checkpoint entry that fails its check', () => {
  const KEY = 'ab'.repeat(32);
  const IDS = Array.from({ length: 10 }, (_, i) => `WAT-${i}`);
  const shape = new Map([['p', IDS]]);
  /** A line as the format says (docs/security.md): its JSON, then "mac": HMAC-SHA-256(key, run key + "\n" + that JSON). Written here independently of the job's writer. */
  const sign = (entry: object, key = KEY) => JSON.stringify({ ...entry, mac: createHmac('sha256', Buffer.from(key, 'hex')).update(`key-1\n${JSON.stringify(entry)}`).digest('hex') });
  const item = (over: Record<string, unknown> = {}) => ({ ok: true, asset_id: 'WAT-0', low: 900, mid: 1000, high: 1100, currency: 'USD', confidence: 0.8, service_score: 70, momentum: null, market_validated: true, ...over });
  /** A checkpoint of a header and `lines`, with the run's key file beside it. */
  const withLines = (...lines: string[]) => {
    const dir = mkdtempSync(join(tmpdir(), 'cp-'));
    writeFileSync(join(dir, CHECKPOINT_KEY_FILE), KEY + '\n', { mode: 0o600 });
    writeFileSync(join(dir, CHECKPOINT_FILE), [sign({ version: 3, key: 'key-1', generated_at: '2026-11-01T06:00:00.000Z' }), ...lines, sign({ c: null })].join('\n') + '\n');
    return dir;
  };
  const good = sign({ p: 'p', v: { 0: item(), 1: item({ asset_id: 'WAT-1' }) }, a: { 0: 'WAT-0', 1: 'WAT-1' } });

  it('uses entries that pass', async () => {
    const cp = (await Checkpoint.load(withLines(good), 'key-1', shape))!;
    expect(cp.discarded.entries).toBe(0);
    expect(cp.portfolio('p').valuations[1]).toMatchObject({ ok: true, mid: 1000 });
    await cp.close();
  });

  it.each([
    ['a mid of 1e308', { 1: item({ mid: 1e308 }) }, /line 3: v\.1\.mid: 1e\+308 is outside its own range 900–1100/],
    ['a mid ×100 outside its own low/high', { 1: item({ mid: 100_000 }) }, /line 3: v\.1\.mid: 100000 is outside its own range/],
    ['a low above its high', { 1: item({ low: 1200, mid: 1000, high: 1100 }) }, /line 3: v\.1\.mid: 1000 is outside its own range 1200–1100/],
    ['a value that is not a number', { 1: item({ mid: 'NaN' }) }, /line 3: v\.1\.mid: .*number/],
    ['a confidence above 1', { 1: item({ confidence: 80 }) }, /line 3: v\.1\.confidence/],
  ])('leaves out the holding and uses the rest: %s', async (_, v, why) => {
    const cp = (await Checkpoint.load(withLines(good, sign({ p: 'p', v, a: { 1: 'WAT-1' } })), 'key-1', shape))!;
    expect(cp.discarded.entries).toBe(1);
    expect(cp.discarded.reasons[0]).toMatch(why);
    const vals = cp.portfolio('p').valuations;
    expect(vals[0]).toMatchObject({ mid: 1000 });
    expect(vals[1]).toBeNull(); // the earlier good entry is forgotten too: the holding is valued again
    expect(describeDiscarded(cp.discarded)).toMatch(/^checkpoint: 1 entry failed its check and was valued again \(line 3/);
    await cp.close();
  });

  it('leaves out an entry recorded for another asset, and its score', async () => {
    const cp = (await Checkpoint.load(withLines(good, sign({ p: 'p', s: { 0: { service_score: 70, momentum: 'neutral', market_validated: true } }, a: { 0: 'WAT-0' } }), sign({ p: 'p', v: { 0: item() }, a: { 0: 'WAT-9' } })), 'key-1', shape))!;
    expect(cp.discarded.reasons).toEqual(['line 4: v.0: it is for asset "WAT-9", not this run\'s "WAT-0"']);
    expect(cp.portfolio('p').valuations[0]).toBeNull();
    expect(cp.portfolio('p').scores[0]).toBeNull();
    await cp.close();
  });

  it('leaves out a whole line whose MAC does not verify, however valid it looks', async () => {
    const forged = sign({ p: 'p', v: { 0: item({ mid: 1010 }), 1: item({ mid: 1010 }) }, a: { 0: 'WAT-0', 1: 'WAT-1' } }, 'cd'.repeat(32));
    const cp = (await Checkpoint.load(withLines(good, forged), 'key-1', shape))!;
    expect(cp.discarded).toEqual({ entries: 2, reasons: ['line 3: its MAC does not verify'] });
    expect(cp.portfolio('p').valuations).toEqual([expect.objectContaining({ mid: 1000 }), expect.objectContaining({ mid: 1000 })]);
    await cp.close();
  });

  it.each([
    ['a position that is not one', sign({ p: 'p', v: { '1e9': item() } }), /line 2: v\.1e9/],
    ['a line of another kind', sign({ x: 1 }), /line 2: not a checkpoint entry/],
    ['a position past the portfolio', sign({ p: 'p', v: { 10: item() }, a: { 10: 'WAT-10' } }), /line 2: holding position 10 is past the 10 holdings of "p"/],
    ['a portfolio the run does not have', sign({ p: 'q', v: { 0: item() }, a: { 0: 'WAT-0' } }), /line 2: no portfolio "q" in this run/],
  ])('leaves out a line that does not fit the run: %s', async (_, line, why) => {
    const cp = (await Checkpoint.load(withLines(line), 'key-1', shape))!;
    expect(cp.discarded.entries).toBe(1);
    expect(cp.discarded.reasons[0]).toMatch(why);
    await cp.close();
  });

  it('uses nothing when its key is missing or readable by others, and starts a new key', async () => {
    const missing = withLines(good);
    rmSync(join(missing, CHECKPOINT_KEY_FILE));
    const a = (await Checkpoint.load(missing, 'key-1', shape))!;
    expect(a.discarded.reasons).toEqual([`its key ${CHECKPOINT_KEY_FILE} is missing`]);
    expect(a.discarded.entries).toBe(3);
    expect(a.portfolio('p').valuations).toEqual([]);
    await a.close();
    expect(readFileSync(join(missing, CHECKPOINT_KEY_FILE), 'utf8').trim()).not.toBe(KEY);

    const open = withLines(good);
    chmodSync(join(open, CHECKPOINT_KEY_FILE), 0o644);
    const b = (await Checkpoint.load(open, 'key-1', shape))!;
    expect(b.discarded.reasons[0]).toMatch(/readable or writable by others \(mode 644, must be 600\)/);
    expect(b.portfolio('p').valuations).toEqual([]);
    await b.close();
  });

  it('uses nothing when its header was edited (the reports would carry another generated_at)', async () => {
    const dir = withLines(good);
    const path = join(dir, CHECKPOINT_FILE);
    writeFileSync(path, readFileSync(path, 'utf8').replace('2026-11-01T06:00:00.000Z', '2020-01-01T00:00:00.000Z'));
    const cp = (await Checkpoint.load(dir, 'key-1', shape))!;
    expect(cp.discarded.reasons).toEqual(['line 1: its MAC does not verify']);
    expect(cp.state.generated_at).not.toBe('2020-01-01T00:00:00.000Z');
    await cp.close();
  });

  it('still refuses a checkpoint of another run (exit 2 at the CLI), before reading its entries', async () => {
    await expect(Checkpoint.load(withLines(good), 'key-2', shape)).rejects.toBeInstanceOf(CheckpointMismatch);
  });
});
