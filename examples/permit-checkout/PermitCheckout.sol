// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

/// The two functions of an EIP-2612 token (USDC's FiatTokenV2_2 has both) the checkout uses.
interface IERC20Permit {
    function permit(address owner, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s) external;
    function transferFrom(address from, address to, uint256 value) external returns (bool);
}

/// A checkout for a total known only later (a tab, a metered service, a basket that may shrink).
/// The buyer signs an EIP-2612 permit that lets this contract spend at most `cap` until `deadline`.
/// The merchant opens the order with that signature, and later charges the final total: no more
/// than the cap, once, before the deadline. Nothing else can move the buyer's tokens.
contract PermitCheckout {
    struct Order {
        address buyer;
        uint256 cap;
        uint256 deadline;
        bool charged;
    }

    IERC20Permit public immutable token;
    address public immutable merchant;
    mapping(bytes32 => Order) public orders;

    event Opened(bytes32 indexed orderId, address indexed buyer, uint256 cap, uint256 deadline);
    event Charged(bytes32 indexed orderId, address indexed buyer, uint256 amount);

    constructor(IERC20Permit token_, address merchant_) {
        token = token_;
        merchant = merchant_;
    }

    modifier onlyMerchant() {
        require(msg.sender == merchant, "PermitCheckout: caller is not the merchant");
        _;
    }

    /// Opens an order with the buyer's permit (value `cap`, spender this contract).
    function open(bytes32 orderId, address buyer, uint256 cap, uint256 deadline, uint8 v, bytes32 r, bytes32 s) external onlyMerchant {
        require(orders[orderId].buyer == address(0), "PermitCheckout: order exists");
        require(buyer != address(0), "PermitCheckout: no buyer");
        token.permit(buyer, address(this), cap, deadline, v, r, s);
        orders[orderId] = Order(buyer, cap, deadline, false);
        emit Opened(orderId, buyer, cap, deadline);
    }

    /// Charges the final total of an open order to the merchant: at most the cap, once, by the deadline.
    function charge(bytes32 orderId, uint256 amount) external onlyMerchant {
        Order storage order = orders[orderId];
        require(order.buyer != address(0), "PermitCheckout: unknown order");
        require(!order.charged, "PermitCheckout: already charged");
        require(block.timestamp <= order.deadline, "PermitCheckout: order expired");
        require(amount <= order.cap, "PermitCheckout: amount above the cap");
        order.charged = true;
        require(token.transferFrom(order.buyer, merchant, amount), "PermitCheckout: transfer failed");
        emit Charged(orderId, order.buyer, amount);
    }
}
