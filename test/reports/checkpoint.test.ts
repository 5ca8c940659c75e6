import { appendFileSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
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
