// One consumer batch's view of the attempt slots it holds on each endpoint (the table keeps the endpoint's own count):
// how many it holds and has not settled, which of its jobs wait for one, and which successes passed theirs on to such
// a job. Each state change is one method; deliver.ts decides when each happens.
import type { LoggedAttempt } from './attempts.ts';
import type { WebhookItem } from './webhook.ts';

/**
 * A success that handed its slot on: logged and counted by the endpoint's next settlement, and its job ends with
 * that write (so SQS hands the job back if the write fails, as it would after a settlement of its own).
 */
export interface PassedOn {
  attempt: LoggedAttempt;
  written: () => void;
  failed: (error: unknown) => void;
}

/** A job waiting for a slot: called with the endpoint as its grant returned it, or undefined to stop waiting. */
type Waiter = (webhook: WebhookItem | undefined) => void;

interface Endpoint {
  held: number;
  line: Waiter[];
  passedOn: PassedOn[];
}

export class SlotState {
  private readonly endpoints = new Map<string, Endpoint>();

  private of(endpoint: string): Endpoint {
    let state = this.endpoints.get(endpoint);
    if (!state) {
      state = { held: 0, line: [], passedOn: [] };
      this.endpoints.set(endpoint, state);
    }
    return state;
  }

  /** A slot write granted `slots` of the endpoint. */
  granted(endpoint: string, slots: number): void {
    this.of(endpoint).held += slots;
  }

  /** Whether `settling` slots are every slot held, so their settlement need wait for no other attempt. */
  covers(endpoint: string, settling: number): boolean {
    return settling >= this.of(endpoint).held;
  }

  /**
   * Waits up to `pollMs` for a success to hand over its slot, or until `freed` says slots came back: the endpoint as
   * its grant returned it, or undefined to try taking a slot. Whichever comes first takes the job out of the line, so
   * a slot is never handed to a job that stopped waiting.
   */
  waitForSlot(endpoint: string, pollMs: number): Promise<WebhookItem | undefined> {
    const { line } = this.of(endpoint);
    return new Promise((resolve) => {
      const waiter: Waiter = (webhook) => {
        clearTimeout(timer);
        resolve(webhook);
      };
      const timer = setTimeout(() => {
        line.splice(line.indexOf(waiter), 1);
        resolve(undefined);
      }, pollMs);
      line.push(waiter);
    });
  }

  /**
   * A success hands its slot to the job waiting longest, if one waits: returns the promise its own job ends with
   * (the next settlement's writes), or undefined when none waits and it settles itself.
   */
  handOn(endpoint: string, webhook: WebhookItem, attempt: LoggedAttempt): Promise<void> | undefined {
    const state = this.of(endpoint);
    const next = state.line.shift();
    if (!next) return undefined;
    const written = new Promise<void>((resolve, reject) =>
      state.passedOn.push({ attempt, written: resolve, failed: reject }),
    );
    next(webhook);
    return written;
  }

  /**
   * A settlement of `slots` slots starts: they are no longer held. Returns the successes passed on since the last
   * settlement, which it logs and counts first (they finished before the attempts settling now).
   */
  settling(endpoint: string, slots: number): PassedOn[] {
    const state = this.of(endpoint);
    state.held -= slots;
    const passedOn = state.passedOn;
    state.passedOn = [];
    return passedOn;
  }

  /** A settlement's slot write landed: every waiting job stops waiting and tries to take a slot of its own. */
  freed(endpoint: string): void {
    const state = this.of(endpoint);
    for (const waiter of state.line.splice(0)) waiter(undefined);
  }
}
