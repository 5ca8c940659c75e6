/**
 * The web page's one style sheet: the house look of the PDF (navy and gold on paper, serif
 * headings) for a screen from 320 to 1,920 px, with CSS only. Under 640 px the tables become
 * lists of cards (each value labelled by its column) and nothing scrolls sideways; the print
 * sheet gives A4 pages with the tables' headers repeated. Colours come from the theme (the firm's
 * brand, already adjusted to AA contrast when loaded, or the house's).
 */
import { PALETTE } from './palette';
import type { Theme } from './brand-theme';

/**
 * The secondary text's grey: the PDF's (6B7280) is 4.4:1 on the cards' and striped rows' paper
 * tint, under WCAG AA's 4.5:1 (axe found it); this one is 5.0:1 on paper and 5.5:1 on white.
 */
const MUTED = '636975';

/** The @font-face rules (html-fonts.ts) go first; the families they declare are named here. */
export function pageStyles(theme: Theme, fontFaces: string): string {
  return `${fontFaces}
:root{--primary:#${theme.primary};--accent:#${theme.accent};--ink:#${PALETTE.ink};--muted:#${MUTED};--rule:#${PALETTE.rule};--paper:#${PALETTE.paper};--pos:#${PALETTE.positive};--neg:#${PALETTE.negative};--warn:#${PALETTE.warning}}
*,*::before,*::after{box-sizing:border-box}
html{-webkit-text-size-adjust:100%}
body{margin:0;background:#fff;color:var(--ink);font:16px/1.5 "Report Sans","Report Script",system-ui,sans-serif;overflow-wrap:anywhere}
h1,h2,h3{font-family:"Report Serif","Report Script",Georgia,serif;color:var(--primary);line-height:1.2}
h2{font-size:1.5rem;margin:2.5rem 0 .75rem;padding-bottom:.35rem;border-bottom:2px solid var(--accent)}
h3{font-size:1.1rem;margin:1.5rem 0 .5rem}
p{margin:.5rem 0}
a{color:var(--primary)}
:focus-visible{outline:3px solid var(--accent);outline-offset:2px;box-shadow:0 0 0 5px #fff}
.skip{position:absolute;inset-inline-start:.5rem;top:-4rem;background:#fff;color:var(--primary);padding:.5rem 1rem;z-index:2}
.skip:focus{top:.5rem}
header.cover{background:var(--primary);color:#fff;padding:1.5rem clamp(1rem,4vw,3rem) 2rem;border-bottom:4px solid var(--accent)}
header.cover h1{color:#fff;font-size:clamp(1.6rem,5vw,2.6rem);margin:.5rem 0}
header.cover .tagline{letter-spacing:.15em;text-transform:uppercase;font-size:.8rem;font-weight:700}
header.cover .logo{background:#fff;display:inline-block;padding:.5rem;max-width:100%}
header.cover .logo img{display:block;max-height:48px;max-width:min(220px,100%);height:auto;width:auto}
nav.toc{padding:.5rem clamp(1rem,4vw,3rem);border-bottom:1px solid var(--rule);background:var(--paper)}
nav.toc ul{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:.25rem 1.25rem}
nav.toc a{display:inline-block;padding:.35rem 0;min-height:24px}
main{max-width:1200px;margin:0 auto;padding:0 clamp(1rem,4vw,3rem) 2rem}
footer{border-top:1px solid var(--rule);color:var(--muted);padding:1rem clamp(1rem,4vw,3rem);font-size:.85rem}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem;margin:1rem 0}
dl.facts dt{color:var(--muted);text-transform:uppercase;font-size:.8rem;letter-spacing:.05em;padding-top:.15rem}
dl.facts dd{margin:0}
.banner{border:2px solid var(--neg);color:var(--neg);padding:.75rem 1rem;margin:1rem 0;background:#fff}
.banner strong{display:block}
.cards-grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,14rem),1fr));gap:1rem;margin:1rem 0}
.card{border:1px solid var(--rule);border-top:3px solid var(--accent);padding:.75rem 1rem;background:var(--paper)}
.card .label{color:var(--muted);font-size:.85rem;margin:0}
.card .value{font-family:"Report Serif","Report Script",Georgia,serif;font-size:1.5rem;margin:.25rem 0;color:var(--primary)}
.card .sub,.muted,.note{color:var(--muted);font-size:.9rem}
.note{border-inline-start:3px solid var(--warn);padding-inline-start:.75rem}
.note,.muted{unicode-bidi:plaintext}
.pos{color:var(--pos)}.neg{color:var(--neg)}.b{font-weight:700}
.card .value.pos{color:var(--pos)}.card .value.neg{color:var(--neg)}
.table-wrap{margin:1rem 0}
table{border-collapse:collapse;width:100%;font-size:.9rem}
caption{text-align:start;font-weight:700;color:var(--primary);padding:.25rem 0}
th,td{padding:.4rem .5rem;border-bottom:1px solid var(--rule);text-align:start;vertical-align:top}
thead th{background:var(--primary);color:#fff;font-weight:700}
thead th button{all:inherit;cursor:pointer;display:inline-flex;gap:.25rem;align-items:center}
thead th button:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
tbody th{font-weight:400}
tfoot th,tfoot td{font-weight:700;border-top:2px solid var(--primary)}
.num{text-align:end;font-variant-numeric:tabular-nums;white-space:nowrap}
th,td{overflow-wrap:normal}
thead th{hyphens:auto}
.sub{display:block;color:var(--muted);font-size:.8rem}
tbody tr:nth-child(even){background:var(--paper)}
figure{margin:1rem 0}
figure>svg{width:100%;height:auto;display:block}
figcaption{color:var(--muted);font-size:.9rem}
details{margin:.5rem 0}
summary{cursor:pointer;color:var(--primary);min-height:24px}
.chart-point{cursor:pointer}
.chart-point:focus{outline:none}
.chart-point:focus-visible circle,.chart-point:focus-visible rect{stroke:var(--accent);stroke-width:3}
.tip{font-weight:700;min-height:1.5em}
.filter{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center;margin:1rem 0}
.filter input{font:inherit;padding:.4rem .6rem;border:1px solid var(--muted);min-width:min(100%,16rem)}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.legend{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:.25rem 1rem;font-size:.9rem}
.swatch{display:inline-block;width:1.5em;height:.5em;margin-inline-end:.35em;vertical-align:middle}
figure.chart{max-width:40rem}
svg .axis{font-size:13px;fill:var(--ink)}
svg .grid{stroke:var(--rule);stroke-width:1}
svg .zero{stroke:var(--ink);stroke-width:1.2}
[hidden]{display:none!important}
@media (max-width:639.98px){
${cardRules('table.cards')} dl.facts{grid-template-columns:1fr}
 dl.facts dd{margin-bottom:.5rem}
}
@media (max-width:1199.98px){
${cardRules('table.wide')}}
@media (min-width:1200px){main{max-width:1400px}table.wide{font-size:.8rem}table.wide th,table.wide td{padding:.35rem .3rem}}
@media (prefers-reduced-motion:reduce){*{transition:none!important;animation:none!important;scroll-behavior:auto!important}}
@media (prefers-reduced-motion:no-preference){html{scroll-behavior:smooth}}
@page{size:A4;margin:18mm 16mm 20mm}
@media print{
 body{font-size:10pt}
 .skip,nav.toc,.filter,.tip{display:none}
 header.cover{min-height:120mm;break-after:page;-webkit-print-color-adjust:exact;print-color-adjust:exact}
 thead th{-webkit-print-color-adjust:exact;print-color-adjust:exact}
 main{max-width:none;padding:0}
 section.part{break-before:page}
 h2,h3,caption{break-after:avoid}
 figure,.card,tr{break-inside:avoid}
 thead{display:table-header-group}
 tfoot{display:table-row-group}
 details>*{display:block}
 details summary{display:none}
 a{color:inherit;text-decoration:none}
}
`;
}

/** A table as a list of cards, each value labelled by its column (under `selector`, inside a media query). */
function cardRules(selector: string): string {
  return ` ${selector},${selector} tbody,${selector} tfoot,${selector} tr,${selector} th,${selector} td{display:block;width:100%}
 ${selector} caption{display:block}
 ${selector} thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
 ${selector} tr{border:1px solid var(--rule);margin:.75rem 0;padding:.25rem .5rem;background:#fff}
 ${selector} tbody tr:nth-child(even){background:#fff}
 ${selector} th,${selector} td{border:0;display:grid;grid-template-columns:minmax(6rem,40%) 1fr;gap:.5rem;text-align:start;padding:.2rem 0}
 ${selector} th::before,${selector} td::before{content:attr(data-label);color:var(--muted);font-weight:400}
 ${selector} tbody th{font-weight:700}
 ${selector} .sub{grid-column:2}
`;
}
