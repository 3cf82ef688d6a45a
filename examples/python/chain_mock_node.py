"""Start the mock node for a Python test suite, with the standard library only.

    with MockNode() as node:          # npx chain-mock-node, or CHAIN_MOCK_NODE=/path/to/executable
        node.call("eth_blockNumber")  # -> "0x0"

The node runs as a child process on a free port (--port 0 --json-logs); the one JSON line it
prints on standard output, {"listening": {...}}, names the endpoints (the dedicated one with its
key, which the log never shows), chain id, token and dev accounts. Leaving the block stops it with
SIGTERM.
"""
import json
import os
import shlex
import subprocess
import urllib.error
import urllib.request


class MockNode:
    def __init__(self, *args, command=None):
        default = os.environ.get("CHAIN_MOCK_NODE", "npx --no-install chain-mock-node")
        self.command = (command or shlex.split(default)) + ["--port", "0", "--json-logs", *args]
        self.process = None
        self.url = self.dedicated_url = self.token = None
        self.chain_id = None
        self.accounts = []

    def __enter__(self):
        # The log (standard error) is not read here: it goes nowhere, so it can never fill a pipe.
        self.process = subprocess.Popen(self.command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        for line in self.process.stdout:
            if line.startswith('{"listening"'):
                listening = json.loads(line)["listening"]
                self.url, self.dedicated_url = listening["url"], listening["dedicatedUrl"]
                self.chain_id, self.token = int(listening["chainId"]), listening["token"]
                self.accounts = listening["accounts"]
                return self
        raise RuntimeError(f"the mock node exited with {self.process.wait()} before listening")

    def __exit__(self, *exc):
        self.process.terminate()
        self.process.wait(timeout=10)
        self.process.stdout.close()

    def call(self, method, *params, url=None):
        """The result of one JSON-RPC call; an error reply raises RpcError."""
        status, reply = self.post(method, *params, url=url)
        if "error" in reply:
            raise RpcError(status, reply["error"])
        return reply["result"]

    def post(self, method, *params, url=None):
        """(HTTP status, reply body) of one call, errors included (the public 403 is a reply too)."""
        body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": list(params)}).encode()
        request = urllib.request.Request(url or self.url, data=body, headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                return response.status, json.loads(response.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read())


class RpcError(Exception):
    def __init__(self, status, error):
        super().__init__(f"HTTP {status}: {error['code']} {error['message']}")
        self.status, self.code, self.message = status, error["code"], error["message"]
