import { isHouseEnglish, type Translator } from '../../src/i18n';

/** When an alert expires, for the dashboard's PDF and page: the house English (`en`) and the pseudo-locale (which formats as it) keep the "2026-11-30 06:00 UTC" it always printed; other languages their own date and time. */
export const alertExpiry = (tr: Translator, ts: string): string => (isHouseEnglish(tr.lang) ? ts.replace('T', ' ').replace(/:\d{2}(\.\d+)?Z$/, ' UTC') : tr.timestamp(ts));
