// The `holdings` area: why a row of a holdings table could not be read (src/holdings), as a message
// per kind of reason. The reader keeps the English sentence (the report's errors and the analyst's
// notes stay English by decision, docs/i18n.md); the add-in says the same reason in Excel's language.
// Static imports, as every area's; en-GB, de-CH and fr-CH say nothing differently here.
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
