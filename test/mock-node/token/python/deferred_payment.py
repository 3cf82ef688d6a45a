#!/usr/bin/env python3
"""The seed's deferred-payment flow from a non-JavaScript client, with nothing but the Python
standard library: read name and version from the token, have the payer sign a
ReceiveWithAuthorization through the node (eth_signTypedData_v4), capture it as the merchant,
sign and relay a cancellation of a second authorization, try to capture that one, and read the
events back with eth_getLogs. Prints what it saw as one JSON object.

The node must run in manual mode (transactions execute on mock_flashblock).

Usage: deferred_payment.py URL TOKEN PAYER MERCHANT
"""
import json
import os
import sys
import urllib.request

SELECTORS = {
    "name": "06fdde03",
    "version": "54fd4d50",
    "balanceOf": "70a08231",
    "authorizationState": "e94a0102",
    "receiveWithAuthorization_bytes": "88b7ab63",
    "cancelAuthorization_bytes": "b7b72899",
}
TOPICS = {
    "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef": "Transfer",
    "0x98de503528ee59b575ef0c0a2576a82497bfc029a5685b209e9ec333479b10a5": "AuthorizationUsed",
    "0x1cdd46ff242716cdaa72d159d339a485b3438398348d68f09d7c8c0a59353d81": "AuthorizationCanceled",
}
AUTH_FIELDS = [
    {"name": "from", "type": "address"},
    {"name": "to", "type": "address"},
    {"name": "value", "type": "uint256"},
    {"name": "validAfter", "type": "uint256"},
    {"name": "validBefore", "type": "uint256"},
    {"name": "nonce", "type": "bytes32"},
]
DOMAIN_FIELDS = [
    {"name": "name", "type": "string"},
    {"name": "version", "type": "string"},
    {"name": "chainId", "type": "uint256"},
    {"name": "verifyingContract", "type": "address"},
]

URL = ""
next_id = 0


def rpc(method, params):
    """Returns (result, error) of one JSON-RPC call."""
    global next_id
    next_id += 1
    body = json.dumps({"jsonrpc": "2.0", "id": next_id, "method": method, "params": params}).encode()
    request = urllib.request.Request(URL, data=body, headers={"Content-Type": "application/json"}, method="POST")
    with urllib.request.urlopen(request, timeout=10) as response:
        reply = json.loads(response.read())
    return reply.get("result"), reply.get("error")


def ok(method, params):
    result, error = rpc(method, params)
    if error:
        raise RuntimeError(f"{method} failed: {error}")
    return result


def word(value):
    """One 32-byte ABI word (hex, no 0x) of an int or a hex string."""
    if isinstance(value, int):
        return format(value, "064x")
    return value[2:].lower().rjust(64, "0")


def encode_with_bytes(selector, static_words, data_hex):
    """selector + static words + one trailing dynamic `bytes` argument."""
    data = data_hex[2:]
    offset = 32 * (len(static_words) + 1)
    padded = data + "0" * ((64 - len(data) % 64) % 64)
    return "0x" + selector + "".join(word(w) for w in static_words) + word(offset) + word(len(data) // 2) + padded


def decode_string(result):
    raw = bytes.fromhex(result[2:])
    offset = int.from_bytes(raw[0:32], "big")
    length = int.from_bytes(raw[offset:offset + 32], "big")
    return raw[offset + 32:offset + 32 + length].decode()


def call(sender, token, data, tag="pending"):
    return rpc("eth_call", [{"from": sender, "to": token, "data": data}, tag])


def sign(signer, primary_type, fields, domain, message):
    typed = {"types": {"EIP712Domain": DOMAIN_FIELDS, primary_type: fields}, "primaryType": primary_type, "domain": domain, "message": message}
    return ok("eth_signTypedData_v4", [signer, json.dumps(typed)])


def send(sender, token, data):
    tx_hash = ok("eth_sendTransaction", [{"from": sender, "to": token, "data": data, "gas": hex(200_000)}])
    ok("mock_flashblock", [])
    return ok("eth_getTransactionReceipt", [tx_hash])


def main():
    global URL
    URL, token, payer, merchant = sys.argv[1:5]
    seen = {}
    name = decode_string(ok("eth_call", [{"to": token, "data": "0x" + SELECTORS["name"]}, "latest"]))
    version = decode_string(ok("eth_call", [{"to": token, "data": "0x" + SELECTORS["version"]}, "latest"]))
    chain_id = int(ok("eth_chainId", []), 16)
    now = int(ok("eth_getBlockByNumber", ["pending", False])["timestamp"], 16)
    domain = {"name": name, "version": version, "chainId": chain_id, "verifyingContract": token}
    seen["domain"] = domain

    def authorization(value):
        return {"from": payer, "to": merchant, "value": str(value), "validAfter": str(now - 60),
                "validBefore": str(now + 900), "nonce": "0x" + os.urandom(32).hex()}

    def capture_data(auth, signature):
        static = [auth["from"], auth["to"], int(auth["value"]), int(auth["validAfter"]), int(auth["validBefore"]), auth["nonce"]]
        return encode_with_bytes(SELECTORS["receiveWithAuthorization_bytes"], static, signature)

    def used(auth):
        result = ok("eth_call", [{"to": token, "data": "0x" + SELECTORS["authorizationState"] + word(payer) + word(auth["nonce"])}, "pending"])
        return int(result, 16) == 1

    def balance(account):
        return int(ok("eth_call", [{"to": token, "data": "0x" + SELECTORS["balanceOf"] + word(account)}, "pending"]), 16)

    # Sign (nothing changes onchain), then capture as the merchant.
    first = authorization(1_250_000)
    block_before = ok("eth_getBlockByNumber", ["pending", False])
    signature = sign(payer, "ReceiveWithAuthorization", AUTH_FIELDS, domain, first)
    block_after = ok("eth_getBlockByNumber", ["pending", False])
    seen["sign_changed_nothing"] = block_before["transactions"] == block_after["transactions"] and not used(first)
    payer_before = balance(payer)
    receipt = send(merchant, token, capture_data(first, signature))
    seen["capture"] = {"status": receipt["status"], "events": [TOPICS.get(log["topics"][0], "?") for log in receipt["logs"]],
                       "used": used(first), "payer_paid": payer_before - balance(payer)}

    # Cancel a second authorization (payer signs, merchant relays), then try to capture it.
    second = authorization(2_000_000)
    signature2 = sign(payer, "ReceiveWithAuthorization", AUTH_FIELDS, domain, second)
    cancel_fields = [{"name": "authorizer", "type": "address"}, {"name": "nonce", "type": "bytes32"}]
    cancel_signature = sign(payer, "CancelAuthorization", cancel_fields, domain, {"authorizer": payer, "nonce": second["nonce"]})
    cancel = send(merchant, token, encode_with_bytes(SELECTORS["cancelAuthorization_bytes"], [payer, second["nonce"]], cancel_signature))
    seen["cancel"] = {"status": cancel["status"], "events": [TOPICS.get(log["topics"][0], "?") for log in cancel["logs"]], "used": used(second)}
    late = send(merchant, token, capture_data(second, signature2))
    _, error = call(merchant, token, capture_data(second, signature2))
    seen["capture_after_cancel"] = {"status": late["status"], "error": error}

    # The seed's envelope (TransferWithAuthorization) sent to receiveWithAuthorization.
    third = authorization(1)
    wrong = sign(payer, "TransferWithAuthorization", AUTH_FIELDS, domain, third)
    _, error = call(merchant, token, capture_data(third, wrong))
    seen["seed_envelope"] = error

    # Watch the events.
    ok("evm_mine", [])
    logs = ok("eth_getLogs", [{"fromBlock": "earliest", "toBlock": "latest", "address": token,
                                "topics": [list(TOPICS.keys()), "0x" + word(payer)]}])
    seen["logs"] = [TOPICS[log["topics"][0]] for log in logs]
    print(json.dumps(seen))


if __name__ == "__main__":
    main()
