// The chain's clock: wall time plus the offset evm_increaseTime adds, and an optional exact
// timestamp for the next block (evm_setNextBlockTimestamp). Timestamps never pass 2^64 - 1, the
// largest a header holds (the chain writer refuses moves past it).
export const MAX_TIMESTAMP = 2n ** 64n - 1n;

export class ChainClock {
  private offset = 0n;
  private next: bigint | undefined;

  now(): bigint {
    return BigInt(Math.floor(Date.now() / 1000)) + this.offset;
  }

  increase(seconds: bigint): bigint {
    this.offset += seconds;
    return this.offset;
  }

  get offsetSeconds(): bigint {
    return this.offset;
  }

  setNextTimestamp(timestamp: bigint): void {
    this.next = timestamp;
  }

  /** The timestamp a block with this parent gets now, without consuming an evm_setNextBlockTimestamp. */
  stampFor(parentTimestamp: bigint): bigint {
    if (this.next !== undefined) return this.next;
    const now = this.now();
    const stamp = now > parentTimestamp ? now : parentTimestamp + 1n;
    return stamp > MAX_TIMESTAMP ? MAX_TIMESTAMP : stamp;
  }

  /** Called when a block with an exact next timestamp seals: later blocks move on from there. */
  consumeNextTimestamp(timestamp: bigint): void {
    if (this.next === undefined) return;
    this.offset += timestamp - this.now();
    this.next = undefined;
  }

  save(): { offset: bigint; next: bigint | undefined } {
    return { offset: this.offset, next: this.next };
  }

  restore(saved: { offset: bigint; next: bigint | undefined }): void {
    this.offset = saved.offset;
    this.next = saved.next;
  }
}
