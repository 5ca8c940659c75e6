import { expect } from 'vitest';

/**
 * A process's log as JSON lines: every non-empty line must parse, and carry a level, an ISO
 * time, a component and a message. Returns the parsed lines.
 */
export function readJsonLines(text: string): Record<string, unknown>[] {
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  return lines.map((line) => {
    let parsed: Record<string, unknown>;
    try {
      parsed = JSON.parse(line) as Record<string, unknown>;
    } catch {
      throw new Error(`not a JSON line: ${line.slice(0, 300)}`);
    }
    expect(parsed, line).toMatchObject({ level: expect.stringMatching(/^(debug|info|warn|error)$/), time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/), component: expect.any(String), msg: expect.any(String) });
    return parsed;
  });
}
