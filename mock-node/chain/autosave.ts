// --autosave-blocks N: writes the state file every N sealed blocks, so a crash loses at most N
// blocks. One save at a time; blocks sealed during a save are covered by one more save after it.
// A failed save is logged as an error and the node keeps running (the next one may succeed).
import type { Chain } from './chain';
import type { Logger } from '../logger';
import type { MockNodeOptions } from '../options';
import { saveStateFile } from './persistence';

export interface Autosave {
  /** Stops counting blocks and waits for a save under way. */
  stop(): Promise<void>;
}

export function startAutosave(chain: Chain, options: MockNodeOptions, logger: Logger): Autosave {
  const every = options.autosaveBlocks;
  const path = options.stateFile;
  if (!every || !path) return { stop: async () => undefined };
  let sealed = 0;
  let saving: Promise<void> | undefined;
  let again = false;
  const save = (): void => {
    if (saving) {
      again = true;
      return;
    }
    saving = saveStateFile(chain, options, path)
      .then(
        (saved) => logger.debug(`autosaved ${path}`, { blocks: saved.blocks, queued: saved.queued, bytes: saved.bytes }),
        (error: unknown) => logger.error(`could not autosave the state file ${path}: ${(error as Error).message}`),
      )
      .finally(() => {
        saving = undefined;
        if (again) {
          again = false;
          save();
        }
      });
  };
  const onBlock = (): void => {
    sealed++;
    if (sealed % every === 0) save();
  };
  chain.on('block', onBlock);
  return {
    async stop() {
      chain.off('block', onBlock);
      again = false;
      await saving;
    },
  };
}
