/**
 * Which cells show a last known answer because the service could not be reached: a cell is
 * counted from when it is served stale until it next settles with a fresh value or an error.
 * Cells are known by their address (the functions ask Excel for it); the pane shows the count.
 */
export class StaleCells {
  private readonly cells = new Set<string>();
  private readonly listeners = new Set<(count: number) => void>();

  note(cell: string, stale: boolean): void {
    const before = this.cells.size;
    if (stale) this.cells.add(cell);
    else this.cells.delete(cell);
    if (this.cells.size !== before) for (const l of this.listeners) l(this.cells.size);
  }

  get count(): number {
    return this.cells.size;
  }

  /** Called with the new count whenever it changes; returns the unsubscribe. */
  subscribe(listener: (count: number) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
