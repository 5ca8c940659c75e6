/** The house colours, shared by the XLSX charts and the PDF (hex RRGGBB, no '#'). */
export const PALETTE = {
  navy: '1F2A44',
  gold: 'B08D57',
  ink: '2B2B2B',
  muted: '6B7280',
  rule: 'D9D4C7',
  paper: 'F7F4EE',
  positive: '2F6B4F',
  negative: '9B2C2C',
  warning: 'B45309',
} as const;

/** Ten distinguishable, sober colours: one per segment in charts. */
export const SERIES_COLOURS = ['1F2A44', 'B08D57', '4F6D7A', '8C6A5D', '6B8F71', 'A3A380', '5C4B51', 'C9A66B', '7D8CA3', '3E5C76'] as const;

/** Bar colours: the portfolio in navy, benchmarks in gold and greys. */
export const BENCHMARK_COLOURS = ['1F2A44', 'B08D57', 'A39E93', '7D8CA3'] as const;
