import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveSettings } from '../../reports/config';
import { InputError } from '../../src/holdings/types';
import { tempDir } from './helpers';

const today = new Date('2026-11-21T10:00:00Z');

describe('settings', () => {
  it('reads svc-report.config.json from the working folder; the environment wins over it, flags over both', () => {
    const cwd = tempDir('svc-report-config-');
    writeFileSync(join(cwd, 'svc-report.config.json'), JSON.stringify({ base_url: 'https://file.example/v1', client_id: 'from-file', client_secret: 's', tier: 'pro', currency: 'EUR', formats: ['pdf'], prepared_by: 'Firm' }));
    const s = resolveSettings({ tier: 'starter' }, { SVC_BASE_URL: 'https://env.example/v1' }, cwd, today);
    expect(s.service).toMatchObject({ baseUrl: 'https://env.example/v1', clientId: 'from-file', tier: 'starter', sandbox: false });
    expect(s).toMatchObject({ currency: 'EUR', formats: ['pdf'], preparedBy: 'Firm', asOf: '2026-11-21' });
    expect(resolveSettings({ formats: 'json,CSV', currency: 'gbp' }, {}, cwd, today)).toMatchObject({ formats: ['json', 'csv'], currency: 'GBP' });
  });

  it('takes the validated-share warning from --validated-warning over validated_warning in the config, 80 % of value by default', () => {
    const cwd = tempDir('svc-report-config-');
    expect(resolveSettings({}, {}, cwd, today).validatedWarningPercent).toBe(80);
    writeFileSync(join(cwd, 'svc-report.config.json'), JSON.stringify({ validated_warning: 60 }));
    expect(resolveSettings({}, {}, cwd, today).validatedWarningPercent).toBe(60);
    expect(resolveSettings({ validatedWarning: 90 }, {}, cwd, today).validatedWarningPercent).toBe(90);
    writeFileSync(join(cwd, 'svc-report.config.json'), JSON.stringify({ validated_warning: 120 }));
    expect(() => resolveSettings({}, {}, cwd, today)).toThrow(/validated_warning/);
  });

  it('waits 300 s for another process holding an embedded history database unless --db-wait says otherwise (issue 34)', () => {
    const cwd = tempDir('svc-report-config-');
    expect(resolveSettings({ db: 'history' }, {}, cwd, today).db).toMatchObject({ target: join(cwd, 'history'), waitMs: 300_000 });
    expect(resolveSettings({ db: 'history', dbWait: 0 }, {}, cwd, today).db?.waitMs).toBe(0);
  });

  it('uses the embedded sandbox when no address is configured, and SVC_SANDBOX marks a configured one as a sandbox', () => {
    const cwd = tempDir('svc-report-config-');
    expect(resolveSettings({}, {}, cwd, today).service).toMatchObject({ baseUrl: undefined, sandbox: true });
    expect(resolveSettings({}, { SVC_BASE_URL: 'http://127.0.0.1:1/v1', SVC_SANDBOX: '1' }, cwd, today).service.sandbox).toBe(true);
  });

  it('refuses a bad config file, currency, date or tier with a sentence naming it', () => {
    const cwd = tempDir('svc-report-config-');
    const bad = join(cwd, 'bad.json');
    writeFileSync(bad, JSON.stringify({ clientsecret: 'x' }));
    expect(() => resolveSettings({ config: bad }, {}, cwd, today)).toThrow(/config file .*bad\.json: .*clientsecret/);
    expect(() => resolveSettings({ config: join(cwd, 'none.json') }, {}, cwd, today)).toThrow(InputError);
    expect(() => resolveSettings({ currency: 'DOLLARS' }, {}, cwd, today)).toThrow(/--currency must be an ISO 4217 code such as USD/);
    expect(() => resolveSettings({ asOf: '31/10/2026' }, {}, cwd, today)).toThrow(/--as-of must be a date .*write 2026-10-31/);
    // Credentials in the address are refused without being echoed.
    expect(() => resolveSettings({}, { SVC_BASE_URL: 'https://firm:s3cret@api.example/v1' }, cwd, today)).toThrow(/^SVC_BASE_URL contains a user name or password \(https:\/\/user:…@host\); it is not printed here/);
    expect(() => resolveSettings({}, { SVC_BASE_URL: 'https://firm:s3cret@api.example/v1' }, cwd, today)).not.toThrow(/s3cret/);
    expect(() => resolveSettings({ asOf: '2026-02-30' }, {}, cwd, today)).toThrow(/--as-of must be a date that exists/);
    expect(() => resolveSettings({ asOf: '2026-11-22' }, {}, cwd, today)).toThrow(/in the future/);
    expect(() => resolveSettings({ tier: 'gold' }, {}, cwd, today)).toThrow(/--tier must be one of starter, pro, enterprise/);
  });
});
