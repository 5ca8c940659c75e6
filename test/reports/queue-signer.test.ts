import { describe, expect, it } from 'vitest';
import { acceptJob } from '../../reports/queue/accept-job';
import { jobPurpose } from '../../reports/queue/jobs';
import { QueueSigner } from '../../reports/queue/queue-signer';

/** The queue's MAC (issue 29): canonical, bound to its purpose, and what acceptJob makes of a job. */
const signer = new QueueSigner('a-queue-secret-for-this-test');

describe('QueueSigner', () => {
  it('verifies the same data whatever its key order (canonical JSON), and nothing else', () => {
    const signed = signer.sign('job:1', { b: [1, { y: 2, x: 'é' }], a: true });
    // As Redis or BullMQ might hand it back: parsed again, keys in another order.
    expect(signer.open('job:1', JSON.parse(JSON.stringify({ m: signed.m, d: { a: true, b: [1, { x: 'é', y: 2 }] } })))).toEqual({ data: { a: true, b: [1, { x: 'é', y: 2 }] } });
    expect(signer.open('job:1', { ...signed, d: { ...signed.d, a: false } })).toBeUndefined();
    expect(signer.open('job:2', signed)).toBeUndefined();
    expect(new QueueSigner('another-queue-secret-entirely').open('job:1', signed)).toBeUndefined();
    for (const m of [undefined, '', 'zz', signed.m.toUpperCase(), signed.m.slice(0, 63), 42]) expect(signer.open('job:1', { d: signed.d, m })).toBeUndefined();
    for (const stored of [null, 'text', [signed.d, signed.m], { d: signed.d }]) expect(signer.open('job:1', stored)).toBeUndefined();
  });
});

describe('acceptJob', () => {
  it('refuses an unsigned job before looking at its data, and a signed one naming the field at fault without quoting it', () => {
    expect(acceptJob(signer, 'j', { holdings: 'root:x:0:0' })).toEqual({ ok: false, why: 'job signature does not verify' });
    expect(acceptJob(signer, undefined, signer.sign(jobPurpose('j'), {}))).toEqual({ ok: false, why: 'job signature does not verify' });
    const bad = acceptJob(signer, 'j', signer.sign(jobPurpose('j'), { runKey: 'root:x:0:0:root:/root:/bin/bash' }));
    expect(bad.ok).toBe(false);
    expect(!bad.ok && bad.why).toMatch(/^job data runKey: /);
    expect(!bad.ok && bad.why).not.toContain('root:');
  });
});
