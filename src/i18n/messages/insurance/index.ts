// The `insurance` area (issue 37): the insurance review's status names, headers and words, in every writer. Imported
// statically so a bundler (the add-in's, tsup's) includes the catalogues; nothing is read at run time.
import { area } from '../../catalogue';
import en from './en.json';
import enGB from './en-GB.json';
import de from './de.json';
import deCH from './de-CH.json';
import fr from './fr.json';
import frCH from './fr-CH.json';
import it from './it.json';
import es from './es.json';
import zhHans from './zh-Hans.json';
import ja from './ja.json';
import ar from './ar.json';

export default area(en, { 'en-GB': enGB, de, 'de-CH': deCH, fr, 'fr-CH': frCH, it, es, 'zh-Hans': zhHans, ja, ar });
