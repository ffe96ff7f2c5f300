// Runs named checks one after another: one line each, a failure recorded and the run going on, a closing count.

export class Suite {
  passed = 0;
  failed = 0;

  constructor(private readonly print: (line: string) => void) {}

  /** Runs one check; `run` answers a short detail for the line, or throws what went wrong. */
  async check(name: string, run: () => Promise<string>): Promise<boolean> {
    try {
      const detail = await run();
      this.passed += 1;
      this.print(`ok    ${name}${detail ? `: ${detail}` : ''}`);
      return true;
    } catch (error) {
      this.failed += 1;
      this.print(`FAIL  ${name}: ${error instanceof Error ? error.message : String(error)}`);
      return false;
    }
  }

  note(line: string): void {
    this.print(`      ${line}`);
  }

  summary(): string {
    return `${this.passed} passed, ${this.failed} failed`;
  }
}

/** What a check needs from an earlier one; the error says that one failed. */
export function needs<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`no ${what} (an earlier check failed)`);
  return value;
}
