import { describe, expect, it } from 'vitest';
import { createLog, LogConfigError, resolveLogFormat, type LogOptions } from '../../src/ops';

/** A log writing into an array of lines. */
function captured(o: Partial<LogOptions> = {}) {
  const lines: string[] = [];
  const log = createLog({ format: 'json', component: 'test-part', stream: { write: (l: string) => lines.push(l) }, ...o });
  return { log, lines, parsed: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>) };
}

describe('the process log', () => {
  it('JSON lines carry level, time, component and message; fields pass through, undefined ones are left out', () => {
    const { log, lines, parsed } = captured();
    log.info('valued a chunk', { request_id: 'req_0123', portfolio: 'Okafor', missing: undefined });
    log.child({ user: 'oid-42' }).warn('slow answer');
    log.debug('not shown at info');
    expect(lines).toHaveLength(2);
    for (const l of lines) expect(l.endsWith('\n')).toBe(true);
    const [a, b] = parsed();
    expect(a).toMatchObject({ level: 'info', component: 'test-part', msg: 'valued a chunk', request_id: 'req_0123', portfolio: 'Okafor', pid: process.pid, hostname: expect.any(String) });
    expect(a).not.toHaveProperty('missing');
    expect(new Date(a!.time as string).toISOString()).toBe(a!.time);
    expect(b).toMatchObject({ level: 'warn', user: 'oid-42', msg: 'slow answer' });
  });

  it('a secret it knows is replaced wherever it would appear: message, fields, JSON-escaped or not, and in text lines', () => {
    const secret = 'demo-"quoted"\\secret-7f3a';
    const { log, lines } = captured({ secrets: [secret] });
    log.error(`refused: ${secret}`, { body: { client_secret: secret }, note: `a${secret}b` });
    const late = 'added-later-secret-91c2';
    log.addSecret(late);
    log.info(`token ${late}`);
    const text: string[] = [];
    const t = createLog({ format: 'text', component: 'x', stream: { write: (l: string) => text.push(l) }, secrets: [secret] });
    t.info(`refused: ${secret}`);
    const all = [...lines, ...text].join('');
    expect(all).not.toContain('quoted');
    expect(all).not.toContain(late);
    expect(all.match(/\[redacted\]/g)!.length).toBe(5);
    expect(log.scrub(`x ${late} y`)).toBe('x [redacted] y');
  });

  it("text lines are today's human lines: the message alone, printable, with the service's request id when there is one", () => {
    const text: string[] = [];
    const t = createLog({ format: 'text', component: 'x', stream: { write: (l: string) => text.push(l) } });
    t.info('Valuing "Okafor\u001b[31m\r\nDone: forged"');
    t.warn('the service answered 503', { request_id: 'req_abc' });
    t.debug('hidden');
    expect(text).toEqual(['Valuing "Okafor\\e[31m\\r\\nDone: forged"\n', 'the service answered 503 (request id req_abc)\n']);
  });

  it('the format: json unless the log goes to a terminal; a wrong value names its source and what is allowed', () => {
    expect(resolveLogFormat(undefined, 'ADDIN_LOG_FORMAT', { isTTY: false })).toBe('json');
    expect(resolveLogFormat(undefined, 'ADDIN_LOG_FORMAT', { isTTY: true })).toBe('text');
    expect(resolveLogFormat(' TEXT ', 'ADDIN_LOG_FORMAT', { isTTY: false })).toBe('text');
    expect(resolveLogFormat('json', 'ADDIN_LOG_FORMAT', { isTTY: true })).toBe('json');
    expect(() => resolveLogFormat('yaml', 'ADDIN_LOG_FORMAT', {})).toThrow(LogConfigError);
    expect(() => resolveLogFormat('yaml', 'ADDIN_LOG_FORMAT', {})).toThrow('ADDIN_LOG_FORMAT must be json or text (got "yaml").');
  });
});
