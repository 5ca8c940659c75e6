import { PALETTE } from './palette';

/** A figure's colour by its sign: losses red, gains green, unknown muted. */
export const signedColour = (v: number | null) => (v === null ? PALETTE.muted : v < 0 ? PALETTE.negative : PALETTE.positive);
