"""A Python integration test against the mock node (python3 -m unittest test_with_mock_node)."""
import unittest

from chain_mock_node import MockNode, RpcError


class PendingAndReceipts(unittest.TestCase):
    def test_a_sent_transfer_is_pending_before_it_is_latest(self):
        with MockNode("--no-auto") as node:
            sender, recipient = node.accounts[0], node.accounts[1]
            node.call("eth_sendTransaction", {"from": sender, "to": recipient, "value": "0x1"})
            node.call("mock_flashblock")
            self.assertEqual(node.call("eth_getTransactionCount", sender, "latest"), "0x0")
            self.assertEqual(node.call("eth_getTransactionCount", sender, "pending"), "0x1")
            self.assertEqual(len(node.call("eth_getBlockByNumber", "pending", False)["transactions"]), 1)
            node.call("evm_mine")
            self.assertEqual(node.call("eth_getTransactionCount", sender, "latest"), "0x1")

    def test_block_receipts_need_the_dedicated_endpoint(self):
        with MockNode("--no-auto") as node:
            with self.assertRaises(RpcError) as refused:
                node.call("eth_getBlockReceipts", "latest")
            self.assertEqual((refused.exception.status, refused.exception.code), (403, -32004))
            self.assertEqual(node.call("eth_getBlockReceipts", "latest", url=node.dedicated_url), [])


if __name__ == "__main__":
    unittest.main()
