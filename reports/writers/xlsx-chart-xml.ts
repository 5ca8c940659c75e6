/**
 * DrawingML for native Excel charts (exceljs cannot draw charts). A chart references its data
 * on a sheet (so it updates when the cells change) and carries a cache of the values, which
 * Excel and LibreOffice show without recalculating.
 */
import { translator, type Translator } from '../../src/i18n';
import { xmlEscape } from './xml-escape';

export interface CategoryChartSpec {
  kind: 'pie' | 'bar';
  title: string;
  /** Sheet the data lives on. */
  sheetName: string;
  /** Column letters and first/last row of the category labels and the values. */
  categoryColumn: string;
  valueColumn: string;
  firstRow: number;
  lastRow: number;
  /** Series name shown in the legend / tooltip. */
  seriesName: string;
  categories: string[];
  values: number[];
  /** Number format of the data labels and value axis, e.g. "0.0%". */
  numberFormat: string;
  /** One colour per point (pie) or per bar, hex RRGGBB without '#'. */
  colours: string[];
}

/** One line of a line chart: its values in one column of the chart's rows. */
export interface LineSeries {
  name: string;
  column: string;
  values: number[];
  /** Hex RRGGBB without '#'. */
  colour: string;
}

/** Lines over dates (the value over time): the dates in `categoryColumn` as date cells, one column per line. */
export interface LineChartSpec {
  kind: 'line';
  title: string;
  sheetName: string;
  categoryColumn: string;
  firstRow: number;
  lastRow: number;
  /** The dates, YYYY-MM-DD, one per row. */
  dates: string[];
  series: LineSeries[];
  /** Number format of the value axis, e.g. the report currency's. */
  numberFormat: string;
  /** Number format of the date axis. */
  dateFormat: string;
}

export type ChartSpec = CategoryChartSpec | LineChartSpec;

/** Where a chart sits on its sheet: zero-based columns and rows of its top-left and bottom-right corners. */
export interface ChartAnchor {
  fromCol: number;
  fromRow: number;
  toCol: number;
  toRow: number;
  /** Alternative text of the chart's frame (its cNvPr descr). */
  alt?: string;
}

/** What a chart shows, in words, for its alternative text: the title, then each category with its value, in `tr`'s language. */
export function chartAlt(spec: ChartSpec, tr: Translator = translator('en')): string {
  const percent = spec.numberFormat.includes('%');
  const value = (v: number | undefined) => (v === undefined || !Number.isFinite(v) ? tr.t('xlsx.alt_na') : percent ? tr.percent(v * 100, { digits: 1 }) : tr.number(Math.round(v * 100) / 100, 2));
  if (spec.kind === 'line') {
    const first = tr.shortDate(spec.dates[0] ?? '');
    const last = tr.shortDate(spec.dates[spec.dates.length - 1] ?? '');
    const lines = spec.series.map((l) => tr.t('xlsx.alt_line_series', { name: l.name, from: value(l.values[0]), first, to: value(l.values[l.values.length - 1]), last }));
    return tr.t('xlsx.alt_line', { title: spec.title, count: spec.dates.length, lines: lines.join('; ') });
  }
  return tr.t(spec.kind === 'pie' ? 'xlsx.alt_pie' : 'xlsx.alt_bar', { title: spec.title, items: spec.categories.map((c, i) => `${c} ${value(spec.values[i])}`).join('; ') });
}

const NS_C = 'http://schemas.openxmlformats.org/drawingml/2006/chart';
export const NS_A = 'http://schemas.openxmlformats.org/drawingml/2006/main';
export const NS_R = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
export const NS_XDR = 'http://schemas.openxmlformats.org/drawingml/2006/spreadsheetDrawing';
const FONT = '<a:latin typeface="Calibri"/>';

/** 'Sheet name'!$B$2:$B$9 — always quoted, so names with spaces work. */
export function sheetRange(sheetName: string, column: string, firstRow: number, lastRow: number): string {
  return `'${sheetName.replace(/'/g, "''")}'!$${column}$${firstRow}:$${column}$${lastRow}`;
}

function solid(hex: string): string {
  return `<a:solidFill><a:srgbClr val="${hex}"/></a:solidFill>`;
}

function textProps(size: number, bold = false, colour = '333333'): string {
  return `<c:txPr><a:bodyPr/><a:lstStyle/><a:p><a:pPr><a:defRPr sz="${size}" b="${bold ? 1 : 0}">${solid(colour)}${FONT}</a:defRPr></a:pPr><a:endParaRPr lang="en-GB"/></a:p></c:txPr>`;
}

function title(text: string): string {
  return (
    `<c:title><c:tx><c:rich><a:bodyPr/><a:lstStyle/><a:p><a:pPr><a:defRPr sz="1200" b="1"/></a:pPr>` +
    `<a:r><a:rPr lang="en-GB" sz="1200" b="1">${solid('1F2A44')}${FONT}</a:rPr><a:t>${xmlEscape(text)}</a:t></a:r></a:p></c:rich></c:tx>` +
    `<c:overlay val="0"/></c:title>`
  );
}

function categoryData(spec: CategoryChartSpec): string {
  const pts = spec.categories.map((c, i) => `<c:pt idx="${i}"><c:v>${xmlEscape(c)}</c:v></c:pt>`).join('');
  return (
    `<c:cat><c:strRef><c:f>${xmlEscape(sheetRange(spec.sheetName, spec.categoryColumn, spec.firstRow, spec.lastRow))}</c:f>` +
    `<c:strCache><c:ptCount val="${spec.categories.length}"/>${pts}</c:strCache></c:strRef></c:cat>`
  );
}

function valueData(spec: CategoryChartSpec): string {
  const pts = spec.values.map((v, i) => (Number.isFinite(v) ? `<c:pt idx="${i}"><c:v>${v}</c:v></c:pt>` : '')).join('');
  return (
    `<c:val><c:numRef><c:f>${xmlEscape(sheetRange(spec.sheetName, spec.valueColumn, spec.firstRow, spec.lastRow))}</c:f>` +
    `<c:numCache><c:formatCode>${xmlEscape(spec.numberFormat)}</c:formatCode><c:ptCount val="${spec.values.length}"/>${pts}</c:numCache></c:numRef></c:val>`
  );
}

function seriesName(spec: CategoryChartSpec): string {
  return `<c:tx><c:v>${xmlEscape(spec.seriesName)}</c:v></c:tx>`;
}

function pointColours(spec: CategoryChartSpec, pie: boolean): string {
  return spec.values
    .map((_, i) => {
      const colour = spec.colours[i % spec.colours.length]!;
      const line = pie ? '<a:ln w="12700"><a:solidFill><a:srgbClr val="FFFFFF"/></a:solidFill></a:ln>' : '';
      return `<c:dPt><c:idx val="${i}"/>${pie ? '<c:bubble3D val="0"/>' : '<c:invertIfNegative val="0"/>'}<c:spPr>${solid(colour)}${line}</c:spPr></c:dPt>`;
    })
    .join('');
}

function dataLabels(spec: CategoryChartSpec, position: 'bestFit' | 'outEnd'): string {
  return (
    `<c:dLbls><c:numFmt formatCode="${xmlEscape(spec.numberFormat)}" sourceLinked="0"/><c:spPr><a:noFill/><a:ln><a:noFill/></a:ln></c:spPr>${textProps(900)}` +
    `<c:dLblPos val="${position}"/><c:showLegendKey val="0"/><c:showVal val="1"/><c:showCatName val="0"/><c:showSerName val="0"/>` +
    `<c:showPercent val="0"/><c:showBubbleSize val="0"/></c:dLbls>`
  );
}

function pieChart(spec: CategoryChartSpec): string {
  return (
    `<c:pieChart><c:varyColors val="1"/><c:ser><c:idx val="0"/><c:order val="0"/>${seriesName(spec)}` +
    `${pointColours(spec, true)}${dataLabels(spec, 'bestFit')}${categoryData(spec)}${valueData(spec)}</c:ser>` +
    `<c:firstSliceAng val="0"/></c:pieChart>`
  );
}

function barChart(spec: CategoryChartSpec): string {
  const catAx = 500001;
  const valAx = 500002;
  return (
    `<c:barChart><c:barDir val="col"/><c:grouping val="clustered"/><c:varyColors val="0"/>` +
    `<c:ser><c:idx val="0"/><c:order val="0"/>${seriesName(spec)}<c:spPr>${solid(spec.colours[0] ?? '1F2A44')}</c:spPr><c:invertIfNegative val="0"/>` +
    `${pointColours(spec, false)}${dataLabels(spec, 'outEnd')}${categoryData(spec)}${valueData(spec)}</c:ser>` +
    `<c:gapWidth val="70"/><c:axId val="${catAx}"/><c:axId val="${valAx}"/></c:barChart>` +
    axes(catAx, valAx, spec.numberFormat, 'low')
  );
}

/**
 * The category (or date) axis along the bottom and the value axis with gridlines, shared by the
 * bar and line charts. `labelPosition` 'low' keeps category labels below negative bars.
 */
function axes(catAx: number, valAx: number, numberFormat: string, labelPosition: 'low' | 'nextTo', categoryFormat = 'General'): string {
  return (
    `<c:catAx><c:axId val="${catAx}"/><c:scaling><c:orientation val="minMax"/></c:scaling><c:delete val="0"/><c:axPos val="b"/>` +
    `<c:numFmt formatCode="${xmlEscape(categoryFormat)}" sourceLinked="0"/><c:majorTickMark val="none"/><c:minorTickMark val="none"/><c:tickLblPos val="${labelPosition}"/>` +
    `<c:spPr><a:ln w="9525">${solid('BFBFBF')}</a:ln></c:spPr>${textProps(900)}` +
    `<c:crossAx val="${valAx}"/><c:crosses val="autoZero"/><c:auto val="1"/><c:lblAlgn val="ctr"/><c:lblOffset val="100"/><c:noMultiLvlLbl val="0"/></c:catAx>` +
    `<c:valAx><c:axId val="${valAx}"/><c:scaling><c:orientation val="minMax"/></c:scaling><c:delete val="0"/><c:axPos val="l"/>` +
    `<c:majorGridlines><c:spPr><a:ln w="6350">${solid('E5E5E5')}</a:ln></c:spPr></c:majorGridlines>` +
    `<c:numFmt formatCode="${xmlEscape(numberFormat)}" sourceLinked="0"/><c:majorTickMark val="none"/><c:minorTickMark val="none"/><c:tickLblPos val="nextTo"/>` +
    `<c:spPr><a:ln><a:noFill/></a:ln></c:spPr>${textProps(900)}` +
    `<c:crossAx val="${catAx}"/><c:crosses val="autoZero"/><c:crossBetween val="between"/></c:valAx>`
  );
}

/** Excel's serial day number of a YYYY-MM-DD date (days since 1899-12-30), as date cells hold it. */
function excelSerial(date: string): number {
  return Math.round((Date.parse(`${date}T00:00:00Z`) - Date.UTC(1899, 11, 30)) / 86_400_000);
}

/** One line per series over the dates: values and dates referenced on the sheet, with their caches. */
function lineChart(spec: LineChartSpec): string {
  const catAx = 500003;
  const valAx = 500004;
  const dates = spec.dates.map((d, i) => `<c:pt idx="${i}"><c:v>${excelSerial(d)}</c:v></c:pt>`).join('');
  const categories =
    `<c:cat><c:numRef><c:f>${xmlEscape(sheetRange(spec.sheetName, spec.categoryColumn, spec.firstRow, spec.lastRow))}</c:f>` +
    `<c:numCache><c:formatCode>${xmlEscape(spec.dateFormat)}</c:formatCode><c:ptCount val="${spec.dates.length}"/>${dates}</c:numCache></c:numRef></c:cat>`;
  const series = spec.series
    .map((l, k) => {
      const pts = l.values.map((v, i) => (Number.isFinite(v) ? `<c:pt idx="${i}"><c:v>${v}</c:v></c:pt>` : '')).join('');
      return (
        `<c:ser><c:idx val="${k}"/><c:order val="${k}"/><c:tx><c:v>${xmlEscape(l.name)}</c:v></c:tx>` +
        `<c:spPr><a:ln w="22225" cap="rnd">${solid(l.colour)}<a:round/></a:ln></c:spPr><c:marker><c:symbol val="none"/></c:marker>` +
        categories +
        `<c:val><c:numRef><c:f>${xmlEscape(sheetRange(spec.sheetName, l.column, spec.firstRow, spec.lastRow))}</c:f>` +
        `<c:numCache><c:formatCode>${xmlEscape(spec.numberFormat)}</c:formatCode><c:ptCount val="${l.values.length}"/>${pts}</c:numCache></c:numRef></c:val>` +
        `<c:smooth val="0"/></c:ser>`
      );
    })
    .join('');
  return (
    `<c:lineChart><c:grouping val="standard"/><c:varyColors val="0"/>${series}<c:marker val="1"/>` +
    `<c:axId val="${catAx}"/><c:axId val="${valAx}"/></c:lineChart>` +
    axes(catAx, valAx, spec.numberFormat, 'nextTo', spec.dateFormat)
  );
}

/** xl/charts/chartN.xml */
export function chartXml(spec: ChartSpec): string {
  const plot = spec.kind === 'pie' ? pieChart(spec) : spec.kind === 'line' ? lineChart(spec) : barChart(spec);
  // A pie's legend names its slices (right); a line chart's names its lines (below); a bar chart's one series needs none.
  const legend = spec.kind === 'bar' ? '' : `<c:legend><c:legendPos val="${spec.kind === 'pie' ? 'r' : 'b'}"/><c:overlay val="0"/>${textProps(900)}</c:legend>`;
  return (
    `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n` +
    `<c:chartSpace xmlns:c="${NS_C}" xmlns:a="${NS_A}" xmlns:r="${NS_R}">` +
    `<c:roundedCorners val="0"/><c:chart>${title(spec.title)}<c:autoTitleDeleted val="0"/>` +
    `<c:plotArea><c:layout/>${plot}</c:plotArea>${legend}<c:plotVisOnly val="1"/><c:dispBlanksAs val="gap"/></c:chart>` +
    `<c:spPr>${solid('FFFFFF')}<a:ln w="9525">${solid('D9D9D9')}</a:ln></c:spPr>` +
    `</c:chartSpace>`
  );
}

/** xl/drawings/drawingN.xml: one anchored graphic frame per chart; chart k is relationship rId{k+1}. */
export function drawingXml(anchors: ChartAnchor[]): string {
  const frames = anchors
    .map(
      (a, k) =>
        `<xdr:twoCellAnchor editAs="oneCell">` +
        `<xdr:from><xdr:col>${a.fromCol}</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>${a.fromRow}</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:from>` +
        `<xdr:to><xdr:col>${a.toCol}</xdr:col><xdr:colOff>0</xdr:colOff><xdr:row>${a.toRow}</xdr:row><xdr:rowOff>0</xdr:rowOff></xdr:to>` +
        `<xdr:graphicFrame macro=""><xdr:nvGraphicFramePr><xdr:cNvPr id="${k + 2}" name="Chart ${k + 1}"${a.alt ? ` descr="${xmlEscape(a.alt)}" title="${xmlEscape(a.alt.slice(0, a.alt.indexOf(':') > 0 ? a.alt.indexOf(':') : a.alt.length))}"` : ''}/><xdr:cNvGraphicFramePr/></xdr:nvGraphicFramePr>` +
        `<xdr:xfrm><a:off x="0" y="0"/><a:ext cx="0" cy="0"/></xdr:xfrm>` +
        `<a:graphic><a:graphicData uri="${NS_C}"><c:chart xmlns:c="${NS_C}" xmlns:r="${NS_R}" r:id="rId${k + 1}"/></a:graphicData></a:graphic>` +
        `</xdr:graphicFrame><xdr:clientData/></xdr:twoCellAnchor>`,
    )
    .join('');
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<xdr:wsDr xmlns:xdr="${NS_XDR}" xmlns:a="${NS_A}">${frames}</xdr:wsDr>`;
}

export const REL_CHART = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/chart';
export const REL_DRAWING = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships/drawing';
export const CT_CHART = 'application/vnd.openxmlformats-officedocument.drawingml.chart+xml';
export const CT_DRAWING = 'application/vnd.openxmlformats-officedocument.drawing+xml';

export function relationshipsXml(rels: { id: string; type: string; target: string }[]): string {
  const items = rels.map((r) => `<Relationship Id="${r.id}" Type="${r.type}" Target="${xmlEscape(r.target)}"/>`).join('');
  return `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${items}</Relationships>`;
}
