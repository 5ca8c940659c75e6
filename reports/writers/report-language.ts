/** The language a report's documents are written in (issue 36), for the writers that draw it. */
import { translator, type Language, type Translator } from '../../src/i18n';
import type { ReportData } from '../report-data';

/** The /Lang of an English report: its text is British English (the house spelling: "Realised"). */
export const REPORT_LANG = 'en-GB';

/** The document's /Lang: the report's language, English stated as the British English it is written in. */
export const documentLang = (lang: Language): string => (lang === 'en' ? REPORT_LANG : lang);

/** The report's translator: its language (the portfolio's, or the run's for the consolidated report), English when absent. */
export const reportTranslator = (data: Pick<ReportData, 'language'>): Translator => translator(data.language ?? 'en');
