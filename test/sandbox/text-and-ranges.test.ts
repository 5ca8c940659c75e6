import { describe, expect, it } from 'vitest';
import { REQUEST_EXAMPLES } from '../../src/wire/examples';
import { call, errorOf, suiteSandbox } from './helpers';

/**
 * Issue 29: the sandbox refuses invisible text that reorders or is not text at all (bidi
 * controls, lone surrogates) as it refuses control characters, in the same error shape; and a
 * number out of range, of the wrong kind or sent as text is answered in the project's words,
 * naming the field and what it takes, never zod's ("Too big: expected int to be <=…").
 */
const asset_id = 'SVC-WAT-ROLEX-126610LN-2020';
const holding = REQUEST_EXAMPLES.createPortfolio.assets[0];
const wine = { segment: 'wine', brand: 'Petrus', model: 'Pomerol', vintage: 2010 };
const suite = suiteSandbox();

async function refusal(path: string, body: unknown) {
  const r = await call(suite.sb.url, 'POST', path, { token: suite.token, body });
  expect(r.status, JSON.stringify(r.json)).toBe(400);
  return errorOf(r);
}

/** What a control character's refusal looks like, but for the message: the shape every text refusal shares. */
async function controlShape() {
  const { message, ...rest } = await refusal('/portfolio', { name: 'Family\u0007', assets: [holding] });
  expect(message).toMatch(/control characters/);
  return rest;
}

const BIDI = ['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069', '\u200e', '\u200f', '\u061c'];
const hex = (c: string) => `U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;

describe('bidirectional controls and lone surrogates are refused like control characters', () => {
  it.each(BIDI.map((c) => [hex(c), c]))('%s in a portfolio name, a brand, a holding and an asset id', async (code, c) => {
    const shape = await controlShape();
    const e = await refusal('/portfolio', { name: `Family${c}`, assets: [holding] });
    expect(e.message).toBe(`name must not contain bidirectional text controls (${code} at character 7)`);
    expect({ ...e, message: undefined }).toEqual({ ...shape, message: undefined });
    expect((await refusal('/valuations', { ...REQUEST_EXAMPLES.createValuation, brand: `Rolex${c}` })).field).toBe('brand');
    expect((await refusal('/portfolio', { name: 'P', assets: [holding, { ...holding, model: `Sub${c}` }] })).field).toBe('assets[1].model');
    expect((await refusal('/scores/breakdown', { asset_id: `${asset_id}${c}` })).field).toBe('asset_id');
  });

  it.each([
    ['a high surrogate alone', '\ud800', 'U+D800'],
    ['a low surrogate alone', '\udfff', 'U+DFFF'],
    ['a pair reversed', '\udc00\ud83d', 'U+DC00'],
  ])('%s: refused, never stored or echoed', async (_, s, code) => {
    const shape = await controlShape();
    const e = await refusal('/portfolio', { name: `Family${s}`, assets: [holding] });
    expect(e.message).toBe(`name must not contain lone surrogates, which are not characters (${code} at character 7)`);
    expect({ ...e, message: undefined }).toEqual({ ...shape, message: undefined });
    expect((await refusal('/valuations', { ...REQUEST_EXAMPLES.createValuation, model: `Sub${s}` })).field).toBe('model');
  });

  it('a whole pair (an emoji) and right-to-left letters themselves are text, stored and echoed', async () => {
    const name = 'Family 🏛 متحف';
    const r = await call(suite.sb.url, 'POST', '/portfolio', { token: suite.token, body: { name, assets: [holding] } });
    expect(r.status).toBe(201);
    expect((r.json as { portfolio: { name: string } }).portfolio.name).toBe(name);
  });
});

/** zod's own wording, which must never reach a user. */
const ZOD_WORDS = /Too (big|small)|expected|<=|>=|Invalid input|safe integer|NaN/;

describe('a number out of range is answered in the project words, naming the field and the range', () => {
  it.each([
    ['quantity 1e308', '/valuations', { ...wine, quantity: 1e308 }, 'quantity', 'quantity must be a whole number from 1 to 100000'],
    ['quantity "NaN"', '/valuations', { ...wine, quantity: 'NaN' }, 'quantity', 'quantity must be a whole number from 1 to 100000'],
    ['quantity "1e308"', '/valuations', { ...wine, quantity: '1e308' }, 'quantity', 'quantity must be a whole number from 1 to 100000'],
    ['quantity 1.5', '/valuations', { ...wine, quantity: 1.5 }, 'quantity', 'quantity must be a whole number from 1 to 100000'],
    ['quantity -3', '/valuations', { ...wine, quantity: -3 }, 'quantity', 'quantity must be at least 1'],
    ['quantity 100001', '/valuations', { ...wine, quantity: 100_001 }, 'quantity', 'quantity must be at most 100000'],
    ['vintage 1e308', '/valuations', { ...wine, vintage: 1e308 }, 'vintage', 'vintage must be a whole number from 1600 to 2100'],
    ['year "Infinity"', '/valuations', { ...REQUEST_EXAMPLES.createValuation, year: 'Infinity' }, 'year', 'year must be a whole number from 1600 to 2100'],
    ['a holding quantity 1e308', '/portfolio', { name: 'P', assets: [holding, { ...holding, quantity: 1e308 }] }, 'assets[1].quantity', 'assets[1].quantity must be a whole number from 1 to 100000'],
    ['current_value "NaN"', '/projections', { asset_id, current_value: 'NaN' }, 'current_value', 'current_value must be a number from 0.01 to 10000000000'],
    ['current_value -5', '/exit', { asset_id, current_value: -5 }, 'current_value', 'current_value must be at least 0.01'],
  ])('%s', async (_, path, body, field, message) => {
    const e = await refusal(path, body);
    expect(e).toMatchObject({ type: 'validation_error', field, message });
    expect(e.message).not.toMatch(ZOD_WORDS);
  });

  it('1e400 (Infinity once parsed) as a quantity names the range too', async () => {
    const e = await refusal('/valuations', `{"segment":"wine","brand":"Petrus","model":"Pomerol","vintage":2010,"quantity":1e400}`);
    expect(e).toMatchObject({ field: 'quantity', message: 'quantity must be a whole number from 1 to 100000' });
  });
});
