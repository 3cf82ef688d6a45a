// Decoding the token's events from raw logs (topics + data) with the kit's ABI.
import { Interface } from 'ethers/abi';
import { STABLE_TOKEN_ABI, type TokenEventName } from './abi';

let events: Interface | undefined;
/** The token's events as an ethers Interface, parsed on first use (not when the module loads). */
const eventsInterface = () => (events ??= new Interface(STABLE_TOKEN_ABI.filter((fragment) => fragment.startsWith('event '))));

export interface DecodedTokenEvent {
  name: TokenEventName;
  /** The event's arguments in declaration order: addresses checksummed, integers as bigint, bytes32 as hex. */
  args: { name: string; type: string; value: bigint | string | boolean }[];
}

/** The token event a log holds; undefined when its topics and data are not one of the token's events. */
export function decodeTokenEvent(log: { topics: readonly string[]; data: string }): DecodedTokenEvent | undefined {
  try {
    const parsed = eventsInterface().parseLog({ topics: [...log.topics], data: log.data });
    if (!parsed) return undefined;
    return {
      name: parsed.name as TokenEventName,
      args: parsed.fragment.inputs.map((input, i) => ({ name: input.name, type: input.type, value: parsed.args[i] as bigint | string | boolean })),
    };
  } catch {
    return undefined;
  }
}
