/// What both server adapters' fuzz tests mutate, so that Hummingbird's mount and Vapor's face the same hostile
/// requests: URLs with the test shop's commands (a route sees the part after the scheme), JSON bodies, and the pieces
/// JSON parsers trip on.
public enum HTTPFuzzInputs {
    /// The URLs to mutate.
    public static let urls = [
        "shop://shop/order?item=hive-42&quantity=2", "shop://shop/echo?text=caf%C3%A9&n=3",
        "shop://shop/audit?item=honey-jar&quantity=1", "app://shop/echo?text=%F0%9F%90%9D#x",
    ]

    /// The bodies to mutate.
    public static let bodies = [#"{"item":"hive-42","quantity":2}"#, #"{"text":"x","n":[1,{"a":null}]}"#]

    /// Pieces a mutated body gains.
    public static let bodyPieces = [
        "{", "}", "[", "]", "\"", "\\", "\\u00", ":", ",", "null", "1e999", "-", "\u{0}", "é",
    ]
}
