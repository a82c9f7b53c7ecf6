import ServiceHive
import ServiceHiveComponents

extension TradeError: PublicCommandError {
    /// 400 for a quantity out of range, 404 for an item the catalog does not have, 409 when the stock is short.
    public var httpStatus: Int {
        switch self {
        case .invalidQuantity: 400
        case .unknownItem: 404
        case .outOfStock: 409
        }
    }

    /// The description, which names only what the caller asked for and the stock they may see.
    public var publicMessage: String { description }
}
