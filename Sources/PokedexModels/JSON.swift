/// A JSON value, written with the keys in the order given (callers sort them, so the output
/// is stable). For pokectl's `--json` and the widgets' lines.
public indirect enum JSON: Sendable {
    case null, bool(Bool), number(String), string(String), array([JSON]), object([(String, JSON)])

    public static func int<T: BinaryInteger>(_ v: T) -> JSON { .number(String(v)) }

    public var text: String {
        switch self {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .number(let n): return n
        case .string(let s): return Self.quote(s)
        case .array(let a): return "[" + a.map(\.text).joined(separator: ",") + "]"
        case .object(let o): return "{" + o.map { Self.quote($0.0) + ":" + $0.1.text }.joined(separator: ",") + "}"
        }
    }

    public static func quote(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            // Every control, not only the C0 ones JSON requires: the text decodes the same, and
            // `pokectl --json` on a terminal shows no DEL, C1 (U+009B is a CSI) or bidi control.
            case _ where UntrustedText.isControl(u):
                out += "\\u" + String(repeating: "0", count: 4 - String(u.value, radix: 16).count) + String(u.value, radix: 16)
            default: out.unicodeScalars.append(u)
            }
        }
        return out + "\""
    }

    public func print() { Swift.print(text) }
}
