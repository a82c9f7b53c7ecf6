import ServiceHive
import TradeModule

let hive = ServiceHive()
try registerTradeServices(into: hive)
let trade = try hive.resolve(TradeService.self)
print("quote:", trade.quote(itemId: "hive-1"))
