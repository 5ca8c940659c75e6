// The `addin` area: the Excel add-in's task pane, its custom functions' metadata (descriptions and
// argument help per language), its cells' error messages and the manifest's texts. Static imports:
// the add-in's bundles (esbuild) carry the catalogues; nothing is read at run time. en-GB and fr-CH
// say nothing differently here, so they fall back to en and fr.
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
