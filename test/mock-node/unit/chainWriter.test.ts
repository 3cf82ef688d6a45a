// The chain's writer keeps its invariants in code: a system change is all or nothing, clock
// changes go through the writer and refuse a timestamp that is not after the latest block's.
import assert from 'node:assert/strict';
import { ChainError } from '../../../mock-node/encoding/errors';
import { createMockNodeCore, type MockNodeCore } from '../../../mock-node/node';

const DEV = '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266';

describe('the chain writer', () => {
  let core: MockNodeCore;
  beforeEach(async () => {
    core = await createMockNodeCore({ auto: false, quiet: true });
  });

  it('a system change that throws changes nothing: no state, no flashblock, no replayed change', async () => {
    const chain = core.services.chain;
    const before = chain.pending;
    let flashblocks = 0;
    chain.on('flashblock', () => flashblocks++);
    await assert.rejects(
      chain.applySystemChange((draft) => {
        draft.updateAccount(DEV, { balance: 1n });
        throw new Error('refused half way');
      }),
      /refused half way/,
    );
    assert.equal(chain.pending, before, 'the pending snapshot is the same object');
    assert.equal(chain.pending.state.account(DEV).balance, before.state.account(DEV).balance);
    assert.equal(flashblocks, 0);
    await chain.mine(1);
    assert.equal(chain.latest.state.account(DEV).balance, before.state.account(DEV).balance, 'nothing to replay into the sealed block');
  });

  it('a system change that succeeds is applied at once, on pending', async () => {
    const chain = core.services.chain;
    await chain.applySystemChange((draft) => draft.updateAccount(DEV, { balance: 7n }));
    assert.equal(chain.pending.state.account(DEV).balance, 7n);
  });

  it('clock changes go through the writer; a next timestamp not after the latest block is a ChainError', async () => {
    const chain = core.services.chain;
    const latest = chain.latest.header.timestamp;
    await assert.rejects(chain.setNextBlockTimestamp(latest), (error: unknown) => error instanceof ChainError && error.kind === 'timestamp-not-after-latest');
    await assert.rejects(chain.mine(1, latest), (error: unknown) => error instanceof ChainError && error.kind === 'timestamp-not-after-latest');
    assert.equal(await chain.increaseTime(100n), 100n);
    assert.equal(chain.clockState().offset, 100n);
    await chain.setNextBlockTimestamp(latest + 1000n);
    const sealed = await chain.mine(1);
    assert.equal(sealed.header.timestamp, latest + 1000n);
  });
});
