import type { OperationName, RequestOf } from './operations';

type RequestOperation = { [N in OperationName]: RequestOf<N> extends never ? never : N }[OperationName];

/**
 * One valid request body for every operation that takes one: shown in the OpenAPI document and
 * used by the tests as the starting point of their bad and fuzzed bodies. Credentials are the
 * sandbox's public demo ones; the asset id is a catalogue id of the sandbox.
 */
const HOLDINGS = [
  { segment: 'watches', brand: 'Rolex', model: 'Submariner Date', reference: '126610LN', condition: 'excellent', purchase_price: 11200, purchase_date: '2021-05-03' },
  { segment: 'wine', producer: 'Petrus', vintage: 2010, quantity: 1, purchase_price: 42000, purchase_date: '2015-06-01' },
] as const satisfies RequestOf<'createPortfolio'>['assets'];

export const REQUEST_EXAMPLES: { [N in RequestOperation]: RequestOf<N> } = {
  createToken: { client_id: 'demo-pro', client_secret: 'demo-pro-secret', grant_type: 'client_credentials' },
  refreshToken: { refresh_token: 'rt_…', grant_type: 'refresh_token' },
  createValuation: { segment: 'watches', brand: 'Rolex', model: 'Submariner Date', reference: '126610LN', year: 2020, condition: 'excellent', box_papers: true, currency: 'USD' },
  batchValuations: {
    assets: [
      { segment: 'watches', brand: 'Rolex', model: 'Submariner Date', reference: '126610LN', year: 2020, condition: 'very_good' },
      { segment: 'wine', producer: 'Petrus', model: 'Pomerol', vintage: 2010, quantity: 2 },
    ],
    currency: 'EUR',
  },
  createScore: { segment: 'art', artist: 'Banksy', title: 'Girl with Balloon', year: 2004, medium: 'spray paint on canvas', size_cm: { width: 60, height: 80 } },
  scoreBreakdown: { asset_id: 'SVC-WAT-ROLEX-126610LN-2020' },
  batchScores: { assets: [{ asset_id: 'SVC-WAT-ROLEX-126610LN-2020' }, { segment: 'bags', brand: 'Hermes', model: 'Birkin 30', condition: 'good' }] },
  createProjection: { asset_id: 'SVC-WAT-ROLEX-126610LN-2020', current_value: 14500, horizons: [12, 36], scenarios: ['conservative', 'central', 'optimistic'], currency: 'USD' },
  createPortfolio: { name: 'Family collection', currency: 'USD', assets: [...HOLDINGS] },
  updatePortfolio: { name: 'Family collection (2026)', assets: [HOLDINGS[0]] },
  analyseExit: { asset_id: 'SVC-WAT-ROLEX-126610LN-2020', current_value: 14500, urgency: 'standard', currency: 'GBP' },
};
