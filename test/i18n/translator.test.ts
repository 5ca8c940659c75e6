import { describe, expect, it } from 'vitest';
import { translator } from '../../src/i18n';
import { accent } from '../../src/i18n/pseudo';

const NNBSP = '\u202f';

describe('translator', () => {
  it('is made once per language and states its language and direction', () => {
    expect(translator('de-CH')).toBe(translator('de-CH'));
    expect(translator('de-CH')).toMatchObject({ lang: 'de-CH', dir: 'ltr' });
    expect(translator('ar')).toMatchObject({ lang: 'ar', dir: 'rtl' });
  });

  it('finds a message along the fallback chain, never printing the key', () => {
    // de-CH has no message of its own here: German's.
    expect(translator('de-CH').t('common.twr')).toBe('Zeitgewichtete Rendite');
    expect(translator('de').t('common.twr')).toBe('Zeitgewichtete Rendite');
    expect(translator('en').t('common.twr')).toBe('Time-weighted return');
    expect(translator('en-GB').t('common.twr')).toBe('Time-weighted return');
  });

  it('takes only keys of the English catalogue: another is a type error, and never printed', () => {
    // @ts-expect-error: not a key of the English catalogue (the type check fails without this line's error)
    expect(() => translator('de').t('common.no_such_key')).toThrow('no message "common.no_such_key" in the catalogues');
  });

  it('applies the language’s plural rules and formats arguments', () => {
    const en = translator('en');
    expect(en.t('common.holdings_count', { count: 1 })).toBe('1 holding');
    expect(en.t('common.holdings_count', { count: 3 })).toBe('3 holdings');
    expect(translator('de').t('common.holdings_count', { count: 1 })).toBe('1 Position');
    expect(translator('de').t('common.holdings_count', { count: 1200 })).toBe('1.200 Positionen');
    expect(translator('de').t('common.valued_as_of', { date: translator('de').date('2026-10-31') })).toBe('Bewertet per 31. Oktober 2026');
  });

  it('formats money, percents and numbers by the locale’s rules, through Intl', () => {
    const deCH = translator('de-CH');
    const chf = new Intl.NumberFormat('de-CH', { style: 'currency', currency: 'CHF' }).format(1234567.891);
    expect(deCH.money(1234567.891, 'CHF')).toBe(chf);
    // Switzerland groups with an apostrophe (ICU's CLDR spells it ' or ’ by version).
    expect(chf).toMatch(/^CHF\s1['’]234['’]567\.89$/);
    // French keeps the sign off the number with a no-break space (CLDR's choice of width by version).
    expect(translator('fr').percent(12.345, { digits: 1, signed: true })).toMatch(/^\+12,3[\u00a0\u202f]%$/);
    expect(translator('fr').money(1234.5, 'EUR')).toBe(`1${NNBSP}234,50\u00a0€`);
    expect(translator('de').number(1234.5, 1)).toBe('1.234,5');
    expect(translator('de').percent(0.01)).toBe('<0,1\u00a0%');
    expect(translator('ar').number(1234.5, 1)).toBe(new Intl.NumberFormat('ar', { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(1234.5));
    for (const l of ['de', 'ja', 'ar', 'zh-Hans'] as const) expect(translator(l).money(null, 'USD')).toBe('–');
  });

  it('writes dates by the locale, Japanese and Arabic in the Gregorian calendar without era', () => {
    expect(translator('de-CH').date('2026-10-31')).toBe('31. Oktober 2026');
    expect(translator('fr').date('2026-10-31')).toBe('31 octobre 2026');
    expect(translator('ja').date('2026-10-31')).toBe('2026年10月31日');
    expect(translator('zh-Hans').date('2026-10-31')).toBe('2026年10月31日');
    expect(translator('ar').date('2026-10-31')).toBe(new Intl.DateTimeFormat('ar', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC', calendar: 'gregory' }).format(Date.UTC(2026, 9, 31)));
    expect(translator('de').month('2026-10')).toBe('Oktober 2026');
    expect(translator('ja').month('2026-10')).toBe('2026年10月');
    expect(translator('de').date('not a date')).toBe('not a date');
    expect(translator('de').date('2026-02-31')).toBe('2026-02-31');
  });

  it('makes the pseudo-locale from English: every letter accented, 40 % longer, placeholders intact', () => {
    const xa = translator('en-XA');
    const en = translator('en');
    const twr = xa.t('common.twr');
    expect(twr).toContain(accent('Time-weighted return'));
    expect(twr).not.toMatch(/[A-Za-z]/);
    expect(twr.length).toBeGreaterThanOrEqual(Math.ceil(en.t('common.twr').length * 1.4));
    // The plural still chooses by the count, and the argument is the value, not accented.
    expect(xa.t('common.holdings_count', { count: 1 })).toContain(`1 ${accent('holding')}`);
    expect(xa.t('common.holdings_count', { count: 3 })).toContain(`3 ${accent('holdings')}`);
    expect(xa.t('common.valued_as_of', { date: 'DATE' })).toContain(`${accent('Valued as of')} DATE`);
  });
});
