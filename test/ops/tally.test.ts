import { Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { Tally } from '../../src/ops';

describe('a tally (a counter kept as plain numbers until the scrape)', () => {
  it('writes each label combination with its sum at the scrape, and nothing for a zero', async () => {
    const registry = new Registry();
    const requests = new Tally({ name: 'requests_total', help: 'x', labelNames: ['route', 'status'], registry });
    const cells = new Tally({ name: 'cells_total', help: 'y', labelNames: [], registry });
    requests.add(1, 'api', '200');
    requests.add(2, 'api', '200');
    requests.add(1, 'api', '503');
    requests.add(0, 'static', '200');
    cells.add(50);
    cells.add(7);
    const text = await registry.metrics();
    expect(text).toContain('requests_total{route="api",status="200"} 3');
    expect(text).toContain('requests_total{route="api",status="503"} 1');
    expect(text).not.toContain('route="static"');
    expect(text).toContain('cells_total 57');
    // A second scrape writes the totals again, not twice the totals.
    requests.add(1, 'api', '200');
    expect(await registry.metrics()).toContain('requests_total{route="api",status="200"} 4');
  });
});
