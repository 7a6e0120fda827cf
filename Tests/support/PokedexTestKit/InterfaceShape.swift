import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// The methods, signals and properties of one interface in introspection XML,
/// with their argument names, types and directions; comments and spacing ignored.
public struct InterfaceShape: Equatable, CustomStringConvertible {
    /// One line per member, sorted: `method ListPage in:u:offset … out:a(ussb):entries`,
    /// `property Online b read`, the format of the contract's `MemberShape.introspectionLine`.
    public var members: [String] = []
    public var description: String { members.joined(separator: "\n") }

    public init(xml: String, interface: String) {
        final class Collector: NSObject, XMLParserDelegate {
            let interface: String
            var inside = false
            var current: String?
            var members: [String] = []
            init(_ i: String) { interface = i }
            func parser(_ p: XMLParser, didStartElement e: String, namespaceURI: String?, qualifiedName: String?, attributes a: [String: String]) {
                switch e {
                case "interface": inside = a["name"] == interface
                case "method" where inside, "signal" where inside: current = "\(e) \(a["name"] ?? "")"
                case "property" where inside: members.append("property \(a["name"] ?? "") \(a["type"] ?? "") \(a["access"] ?? "")")
                case "arg" where inside && current != nil:
                    current! += " \(a["direction"] ?? (current!.hasPrefix("signal") ? "out" : "in")):\(a["type"] ?? ""):\(a["name"] ?? "")"
                default: break
                }
            }
            func parser(_ p: XMLParser, didEndElement e: String, namespaceURI: String?, qualifiedName: String?) {
                if e == "interface" { inside = false }
                if (e == "method" || e == "signal"), let c = current { members.append(c); current = nil }
            }
        }
        let parser = XMLParser(data: Data(xml.utf8))
        let collector = Collector(interface)
        parser.delegate = collector
        parser.shouldResolveExternalEntities = false
        _ = parser.parse()
        members = collector.members.sorted()
    }
}
