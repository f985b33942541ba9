/** The request log shown in Diagnostics: the last DIAGNOSTICS_KEPT entries, oldest first. */
import { type DiagnosticEntry, DIAGNOSTICS_KEPT } from '../../../src/shared/app-api/diagnostics';

export class DiagnosticsLog {
  private readonly items: DiagnosticEntry[] = [];

  constructor(private readonly capacity = DIAGNOSTICS_KEPT) {}

  add(entry: DiagnosticEntry): void {
    this.items.push(entry);
    if (this.items.length > this.capacity) this.items.splice(0, this.items.length - this.capacity);
  }

  /** A copy of the kept entries, oldest first. */
  entries(): DiagnosticEntry[] {
    return [...this.items];
  }
}
