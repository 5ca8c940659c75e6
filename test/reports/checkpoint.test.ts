import { appendFileSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CHECKPOINT_FILE, Checkpoint, CheckpointMismatch, readCheckpointState } from '../../reports/run/checkpoint';
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

  it('compacts on resume and refuses a damaged middle or another run', async () => {
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
    appendFileSync(join(damaged, CHECKPOINT_FILE), [lines[0], '{broken', ...lines.slice(1)].join('\n') + '\n');
    await expect(Checkpoint.load(damaged, 'key-1')).rejects.toThrow(/damaged/);
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

describe('a checkpoint that fails validation', () => {
  const withLine = (line: string) => {
    const dir = mkdtempSync(join(tmpdir(), 'cp-'));
    writeFileSync(join(dir, CHECKPOINT_FILE), `${JSON.stringify({ version: 2, key: 'key-1', generated_at: '2026-11-01T06:00:00.000Z' })}\n${line}\n{"c":null}\n`);
    return dir;
  };

  it.each([
    ['a value that is not a number', '{"p":"p","v":{"0":{"ok":true,"low":1,"mid":"NaN","high":2,"currency":"USD","confidence":0.8,"service_score":70,"momentum":null,"market_validated":true}}}', /line 2: v\.0\.mid/],
    ['a position that is not one', '{"p":"p","v":{"1e9":{"ok":false,"field":"","message":"x","transient":true}}}', /line 2: v\.1e9/],
    ['a line of another kind', '{"x":1}', /line 2: not a checkpoint entry/],
  ])('is refused with the file, the line and the way out: %s', async (_, line, where) => {
    const dir = withLine(line);
    const load = Checkpoint.load(dir, 'key-1', new Map([['p', 10]]));
    await expect(load).rejects.toBeInstanceOf(CheckpointMismatch);
    await expect(load).rejects.toThrow(where);
    await expect(load).rejects.toThrow(join(dir, CHECKPOINT_FILE));
    await expect(load).rejects.toThrow(/delete it to start afresh, or run without --resume/);
  });

  it('is refused when it names a position past the portfolio or a portfolio the run does not have', async () => {
    const ok = '{"ok":false,"field":"","message":"x","transient":true}';
    await expect(Checkpoint.load(withLine(`{"p":"p","v":{"10":${ok}}}`), 'key-1', new Map([['p', 10]]))).rejects.toThrow(/position 10 is past the 10 holdings of "p"/);
    await expect(Checkpoint.load(withLine(`{"p":"q","v":{"0":${ok}}}`), 'key-1', new Map([['p', 10]]))).rejects.toThrow(/no portfolio "q" in this run/);
  });
});
