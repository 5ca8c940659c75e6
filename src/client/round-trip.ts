/**
 * The service's round-trip time as this client sees it: from the request leaving to its body
 * in hand, not counting the wait in the rate gate. An exponentially weighted moving average
 * (weight 0.2 for the newest call): it follows a service that slows down within a few calls,
 * and one slow call moves it little. With the gate's pace it sizes a window of calls in flight
 * by Little's law (in flight ≈ calls per ms × round-trip ms).
 */
export class RoundTripMeter {
  private average: number | undefined;
  private count = 0;

  constructor(private readonly weight = 0.2) {}

  record(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) return;
    this.count++;
    this.average = this.average === undefined ? ms : this.average + this.weight * (ms - this.average);
  }

  /** The moving average in ms, or undefined before the first answer. */
  get ms(): number | undefined {
    return this.average;
  }

  /** Calls measured so far. */
  get samples(): number {
    return this.count;
  }
}
