// mock_setFaults / mock_getFaults: the injected faults of one handler (they live with the handler
// that applies them, so each node has its own).
import type { Logger } from '../../logger';
import type { FaultInjector } from '../faults';
import type { MethodTable } from './types';

export function faultControlMethods(faults: FaultInjector, logger: Logger): MethodTable {
  return {
    /** mock_setFaults(spec): replaces every injected fault; {} (or no param) clears them. Answers the rules now in force. */
    mock_setFaults: (params) => {
      const rules = faults.set(params[0] ?? {});
      logger.info(faults.enabled ? 'faults set' : 'faults cleared', faults.enabled ? { spec: rules } : undefined);
      return rules;
    },
    mock_getFaults: () => faults.get(),
  };
}
