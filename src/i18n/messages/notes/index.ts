// The `notes` area: the sentences the build composes into the report data (method text,
// disclaimer, validation warning, section notes, period and benchmark names, quantity units).
// Imported statically so a bundler includes the catalogues; nothing is read at run time.
// en-GB and fr-CH say nothing differently here: they fall back to en and fr.
import { area } from '../../catalogue';
import en from './en.json';
import de from './de.json';
import deCH from './de-CH.json';
import fr from './fr.json';
import it from './it.json';
import es from './es.json';
import zhHans from './zh-Hans.json';
import ja from './ja.json';
import ar from './ar.json';

export default area(en, { de, 'de-CH': deCH, fr, it, es, 'zh-Hans': zhHans, ja, ar });
