// How the demo prints: a human walkthrough on a terminal (colour only when stdout is a TTY and
// NO_COLOR is unset), or one JSON object per line with --json. A step fails when one of its checks
// does not hold; the process then exits non-zero.

export interface StepResult {
  step: number;
  title: string;
  ok: boolean;
  lines: string[];
  checks: { what: string; ok: boolean }[];
  error?: string;
  ms: number;
}

export class StepFailed extends Error {}

export class Step {
  readonly lines: string[] = [];
  readonly checks: { what: string; ok: boolean }[] = [];
  constructor(private readonly reporter: Reporter) {}

  /** A line of what happened (printed as it happens on a terminal). */
  say(line: string): void {
    this.lines.push(line);
    this.reporter.live(`    ${line}`);
  }

  /** A claim the walkthrough makes; a false one fails the step (and the demo). */
  check(what: string, ok: boolean): void {
    this.checks.push({ what, ok });
    this.reporter.live(`    ${ok ? this.reporter.paint('32', '✓') : this.reporter.paint('31', '✗')} ${what}`);
    if (!ok) throw new StepFailed(what);
  }
}

export class Reporter {
  readonly results: StepResult[] = [];
  private readonly colour: boolean;

  constructor(readonly json: boolean, private readonly out: NodeJS.WriteStream = process.stdout) {
    this.colour = !json && out.isTTY === true && !process.env.NO_COLOR;
  }

  paint(code: string, text: string): string {
    return this.colour ? `\x1b[${code}m${text}\x1b[0m` : text;
  }

  live(line: string): void {
    if (!this.json) this.out.write(line + '\n');
  }

  async run(title: string, body: (step: Step) => Promise<void>): Promise<boolean> {
    const number = this.results.length + 1;
    this.live(`\n${this.paint('1', `${number}. ${title}`)}`);
    const step = new Step(this);
    const started = Date.now();
    let error: string | undefined;
    try {
      await body(step);
    } catch (thrown) {
      error = thrown instanceof StepFailed ? `check failed: ${thrown.message}` : String((thrown as Error)?.message ?? thrown);
      if (!(thrown instanceof StepFailed)) this.live(`    ${this.paint('31', '✗')} ${error}`);
    }
    const result: StepResult = { step: number, title, ok: error === undefined, lines: step.lines, checks: step.checks, error, ms: Date.now() - started };
    this.results.push(result);
    if (this.json) this.out.write(JSON.stringify(result) + '\n');
    return result.ok;
  }

  summary(): boolean {
    const failed = this.results.filter((r) => !r.ok);
    if (this.json) {
      this.out.write(JSON.stringify({ summary: true, steps: this.results.length, failed: failed.length }) + '\n');
    } else {
      const verdict = failed.length === 0
        ? this.paint('32', `every one of the ${this.results.length} steps behaved as printed`)
        : this.paint('31', `${failed.length} of ${this.results.length} steps did not behave as printed: ${failed.map((f) => f.step).join(', ')}`);
      this.out.write(`\ndemo: ${verdict}\n`);
    }
    return failed.length === 0;
  }
}
