/** The cover's references (the PDF's cover page, the web page's header): label and value pairs. */
import { managerIn, type Brand } from '../../src/brand';
import type { Translator } from '../../src/i18n';
import type { ReportCover } from '../report-data';

/**
 * Base currency, reference, when generated, the portfolio id, who prepared it, and for a client
 * report the portfolio's relationship manager with their contact; `warn` hears a manager's words
 * missing in the client's language.
 */
export function coverFacts(c: ReportCover, brand: Brand | undefined, tr: Translator, warn: (line: string) => void): [string, string][] {
  const rows: [string, string][] = [
    [tr.t('pdf.cover_base_currency'), c.currency],
    [tr.t('pdf.cover_reference'), c.report_id],
    [tr.t('pdf.cover_generated'), tr.timestamp(c.generated_at)],
  ];
  if (c.portfolio_id) rows.push([tr.t('pdf.cover_portfolio_id'), c.portfolio_id]);
  const preparedBy = c.prepared_by ?? brand?.firmName;
  if (preparedBy) rows.push([tr.t('pdf.cover_prepared_by'), preparedBy]);
  const manager = c.audience === 'internal' ? undefined : managerIn(brand, { name: c.portfolio_name, id: c.portfolio_id }, tr.lang, { portfolio: c.portfolio_name, warn });
  if (manager) {
    // Their own title in the client's language (the brand's managers file), else the house's words.
    rows.push([manager.title ?? tr.t('pdf.cover_manager'), manager.name]);
    const contact = [manager.email, manager.phone].filter(Boolean).join(' · ');
    if (contact) rows.push([tr.t('pdf.cover_contact'), contact]);
  }
  return rows;
}
