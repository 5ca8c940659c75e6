import { printable } from '../../src/printable';
import { hostText, type HostText } from './host-text';

/** C0 controls (NUL among them), DEL and C1 controls: never part of a name, a date or an id. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * The first query parameter whose name or value holds a control character, with the sentence the
 * 400 says; undefined when there is none. Checked before any route reads its parameters, so a NUL
 * never reaches the database (PostgreSQL refuses it in text, which was a 500 with a stack trace).
 */
export function controlCharacterRefusal(params: URLSearchParams): { field: string; message: HostText } | undefined {
  for (const [name, value] of params) {
    if (!CONTROL.test(name) && !CONTROL.test(value)) continue;
    const field = printable(name);
    const c = (CONTROL.exec(value) ?? CONTROL.exec(name))![0];
    return { field, message: hostText('addin.host_query_control', { field, code: `U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}` }) };
  }
  return undefined;
}
