// One table of requests to `shopHive()`'s components, mounted under `/api`, and what each must answer: every server
// adapter's tests send all of them, so that the same request gets the same answer on every framework.

/// A request to the shop's components, and what it must answer.
public struct HTTPRuleCase: Sendable, CustomStringConvertible {
    /// `GET` or `POST`.
    public var method: String
    /// The request's target: `/api/…`, with its query.
    public var target: String
    /// The `Content-Type` of the body; `nil` for none.
    public var contentType: String?
    /// The body; `nil` for none.
    public var body: String?
    /// The status it must answer.
    public var status: Int
    /// The body it must answer, exactly; `nil` to check the status only.
    public var answer: String?
    /// What Vapor answers instead, where it cannot answer the same: its URL parser, Foundation's, re-encodes a
    /// malformed escape such as `%ZZ` as `%25ZZ` before any route sees the request, so the hive reads the text `%ZZ`.
    public var onVapor: (status: Int, answer: String?)? = nil

    /// `GET /api/shop/echo?… → 400`, cut to 120 characters.
    public var description: String {
        let text = "\(method) \(target)"
        return (text.count > 120 ? text.prefix(120) + "…" : text) + " → \(status)"
    }
}

/// `{"error":{"argument":…,"message":…}}`, as a refusal naming an argument answers.
public func refusalBody(_ argument: String, _ message: String) -> String {
    #"{"error":{"argument":"\#(argument)","message":"\#(message)"}}"#
}

/// `{"error":{"message":…}}`.
public func errorBody(_ message: String) -> String {
    #"{"error":{"message":"\#(message)"}}"#
}

/// The table.
public let httpRuleCases: [HTTPRuleCase] = {
    let json = "application/json"
    let notFound = errorBody("There is no command at this path.")
    let failed = errorBody("The server failed to run the command.")
    let longKey = String(repeating: "k", count: 1_000)
    let cutKey = String(repeating: "k", count: 39) + "…"  // a long text keeps its first 39 characters
    let deep = String(repeating: "[", count: 40) + String(repeating: "]", count: 40)
    func get(_ target: String, _ status: Int, _ answer: String? = nil) -> HTTPRuleCase {
        HTTPRuleCase(method: "GET", target: target, status: status, answer: answer)
    }
    func post(_ target: String, _ body: String, _ status: Int, _ answer: String? = nil, type: String? = json)
        -> HTTPRuleCase
    {
        HTTPRuleCase(method: "POST", target: target, contentType: type, body: body, status: status, answer: answer)
    }
    return [
        // Replies.
        get(
            "/api/shop/order?item=hive-42&quantity=2&gift=true", 200,
            #"{"gift":true,"item":"hive-42","lines":[{"item":"hive-42","quantity":2}],"quantity":2}"#),
        get("/api/shop/echo?text=caf%C3%A9%20au%20lait", 200, #"{"n":0,"text":"café au lait"}"#),
        post("/api/shop/ship", #"{"item":"hive-42","speed":"express"}"#, 200, #"{"days":1,"item":"hive-42"}"#),
        post("/api/shop/echo?text=x", "", 200, #"{"n":0,"text":"x"}"#),
        post("/api/shop/echo", #"{"text":"v"}"#, 200, type: "application/vnd.shop+json; charset=utf-8"),
        // Nothing there, or nothing the caller may run: one 404.
        get("/api/promo/spring", 404, notFound), get("/api/shop/sell", 404, notFound),
        get("/api/shop/audit", 404, notFound), post("/api/shop/audit", "{}", 404, notFound),
        get("/api/shop/order/extra", 404, notFound), get("/api/%2E%2E/order", 404, notFound),
        get("/api/shop/%2Fetc", 404, notFound), get("/api/sh%00op/order", 404, notFound),
        // Arguments.
        get(
            "/api/shop/order?item=hive-42", 400,
            refusalBody("quantity", "The argument 'quantity' is missing.")),
        get(
            "/api/shop/order?item=hive-42&quantity=two", 400,
            refusalBody("quantity", "The argument 'quantity' is not a valid Int.")),
        post(
            "/api/shop/ship", #"{"item":"hive-42","speed":"warp"}"#, 400,
            refusalBody("speed", "The argument 'speed' is not valid.")),
        // What commands throw.
        get("/api/shop/order?item=smoker&quantity=1", 409, errorBody("smoker is sold out.")),
        get("/api/shop/ledger", 500, failed), get("/api/shop/opaque", 500, failed),
        get("/api/shop/misnumbered", 500, failed),
        // Queries: the length first, then the repeated-key rule.
        get("/api/shop/echo?text=" + String(repeating: "x", count: 2_100), 414),
        get("/api/shop/echo?text=a&" + String(repeating: "x", count: 60_000) + "&text=b", 414),
        get("/api/shop/echo?" + (0..<8_000).map { "k\($0)=1" }.joined(separator: "&"), 414),
        {
            var malformed = get("/api/shop/echo?text=%ZZ", 400)
            malformed.onVapor = (200, #"{"n":0,"text":"%ZZ"}"#)
            return malformed
        }(), get("/api/shop/echo?text=%FF", 400), get("/api/shop/echo?=x", 400),
        get(
            "/api/shop/echo?text=a&text=b", 400,
            refusalBody("text", "The key 'text' appears more than once in the query.")),
        get(
            "/api/shop/order?it%65m=a&quantity=1&item=b", 400,
            refusalBody("item", "The key 'item' appears more than once in the query.")),
        get(
            "/api/shop/echo?\(longKey)=1&\(longKey)=2", 400,
            refusalBody(cutKey, "The key '\(cutKey)' appears more than once in the query.")),
        get(
            "/api/shop/echo?a%00b=1&a%00b=2", 400,
            refusalBody(#"a\\0b"#, #"The key 'a\\0b' appears more than once in the query."#)),
        // Bodies.
        post(
            "/api/shop/echo", "{", 400,
            errorBody("The body must be a JSON object, whose members are the arguments.")),
        post("/api/shop/echo", #"["text"]"#, 400),
        post(
            "/api/shop/echo", #"{"text":\#(deep)}"#, 400,
            errorBody("The body nests arrays and objects deeper than 32 levels.")),
        post("/api/shop/echo", #"{"text":"\#(String(repeating: "x", count: 70_000))"}"#, 413),
        post("/api/shop/echo", "text=a", 415, type: "text/plain"),
        post(
            "/api/shop/order", #"{"item":"a","quantity":1,"it\u0065m":"b"}"#, 400,
            refusalBody("item", "The key 'item' appears more than once in the JSON body.")),
        post(
            "/api/shop/echo", #"{"text":"x","n":{"a":1,"b":[{"c":1,"c":2}]}}"#, 400,
            refusalBody("n", "The key 'c' appears more than once in an object in the argument 'n' of the JSON body.")),
        post(
            "/api/shop/echo?text=a", #"{"text":"b"}"#, 400,
            refusalBody("text", "The key 'text' appears in both the query and the JSON body.")),
    ]
}()
