/**
 * The `notes` area's pure parts, one language each way: the error frame and the wine unit in the
 * report's language around the names and reasons nobody translates, and the disclaimer's sentences
 * as Chinese and Japanese set them (no space between). English is unchanged.
 */
import { describe, expect, it } from 'vitest';
import { translator } from '../../src/i18n';
import type { Holding } from '../../src/holdings/types';
import { valuationError } from '../../reports/build/errors';
import { describeHolding, quantityUnit } from '../../reports/build/describe';
import { composeDisclaimer } from '../../reports/report-disclaimer';

const wine = { portfolio: 'Ashford', segment: 'wine', brand: 'Pétrus', model: 'Pomerol', year: 2010, quantity: 3, source: { file: '/in/clients.xlsx', sheet: 'Kunden', row: 7 } } as unknown as Holding;
const summary = { asset_count: 4, market_validated_count: 1, market_validated_percent: 12.5 };

describe('the build says its frame in the report language', () => {
  it('a holding not valued: the frame in German, the service’s reason and the file as they are; English as before', () => {
    expect(valuationError(wine, 'asset', 'no comparable sales.', false, translator('de')).message).toBe('Nicht bewertet: no comparable sales. [clients.xlsx, Blatt Kunden]');
    expect(valuationError(wine, 'asset', 'no comparable sales.').message).toBe('Not valued: no comparable sales. [clients.xlsx, sheet Kunden]');
  });

  it('the wine unit follows the language’s plural rules; the names stay the client’s', () => {
    expect(describeHolding(wine, translator('en'))).toBe('Pétrus Pomerol (2010) × 3 cases of 12 × 75 cl');
    expect(describeHolding(wine, translator('fr'))).toBe('Pétrus Pomerol (2010) × 3 caisses de 12 × 75 cl');
    expect(quantityUnit({ ...wine, quantity: 1 }, translator('de'))).toBe('Kiste zu 12 × 75 cl');
    expect(quantityUnit({ ...wine, quantity: 2 }, translator('ar'))).toBe('صندوقان من 12 × 75 سل');
  });

  it('the disclaimer: Japanese sentences without a space between them, the percent as Intl writes it', () => {
    const ja = composeDisclaimer(summary, true, 'ja');
    expect(ja).not.toMatch(/。 /);
    expect(ja).toContain(`評価額の${new Intl.NumberFormat('ja', { style: 'percent', minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(0.875)}（4件の評価のうち3件）`);
    expect(composeDisclaimer(summary, false)).toBe(
      'Values in this report are model estimates (low, mid and high), not offers, appraisals or guarantees of a sale price. Past performance and projections do not guarantee future results. ' +
        '87.5 % of the value (3 of 4 valuations) is not market validated: treat those values with extra caution.',
    );
  });
});
