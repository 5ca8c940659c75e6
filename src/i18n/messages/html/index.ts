// The `html` area: the web page's own words (issue 38): the skip link, the contents, the holdings'
// filter and sorting, the charts' hints. Everything else on the page is the PDF's words (`pdf`,
// `columns`, `dashboard`, …). de-CH and fr-CH say nothing differently: they fall back to de and fr.
import { area } from '../../catalogue';
import en from './en.json';
import de from './de.json';
import fr from './fr.json';
import it from './it.json';
import es from './es.json';
import zhHans from './zh-Hans.json';
import ja from './ja.json';
import ar from './ar.json';

export default area(en, { de, fr, it, es, 'zh-Hans': zhHans, ja, ar });
