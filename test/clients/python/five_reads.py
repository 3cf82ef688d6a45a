#!/usr/bin/env python3
"""A non-JavaScript client: calls the seed's five reads on the mock node with nothing but the
Python standard library, and prints what it saw as one JSON object.

Usage: five_reads.py PUBLIC_URL DEDICATED_URL ADDRESS
"""
import json
import sys
import urllib.error
import urllib.request


def call(url, method, params, request_id=1):
    body = json.dumps({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params}).encode()
    request = urllib.request.Request(url, data=body, headers={"Content-Type": "application/json"}, method="POST")
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, json.loads(response.read())
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"null")


def main():
    public_url, dedicated_url, address = sys.argv[1:4]
    seen = {}
    for tag in ["latest", "pending"]:
        status, reply = call(public_url, "eth_getBlockByNumber", [tag, False])
        seen[f"block_{tag}"] = {"status": status, "number": reply["result"]["number"], "transactions": reply["result"]["transactions"]}
        status, reply = call(public_url, "eth_getTransactionCount", [address, tag])
        seen[f"nonce_{tag}"] = int(reply["result"], 16)
        status, reply = call(public_url, "eth_getStorageAt", [address, "0x0", tag])
        seen[f"storage_{tag}"] = reply["result"]
        status, reply = call(public_url, "eth_getLogs", [{"fromBlock": tag, "toBlock": "pending"}])
        seen[f"logs_{tag}"] = reply["result"]
    status, reply = call(public_url, "eth_getBlockReceipts", ["pending"])
    seen["receipts_public"] = {"status": status, "code": reply["error"]["code"]}
    status, reply = call(dedicated_url, "eth_getBlockReceipts", ["pending"])
    seen["receipts_dedicated"] = {"status": status, "statuses": [r["status"] for r in reply["result"]]}
    print(json.dumps(seen))


if __name__ == "__main__":
    main()
