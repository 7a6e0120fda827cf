import CBusShims
import CSystemd
import Glibc
import PokedexEventLoop
import PokedexProtocol

/// One interface published at one object path: its vtable is built from the interface's
/// description, and every call is dispatched to the route of that name. Belongs to the
/// loop thread.
final class BusObject {
    let interface: Interface
    private let loop: EventLoop
    private let methods: [String: MethodRoute]
    private let properties: [String: PropertyRoute]
    private let pending: PendingCalls
    private let queue: CallQueue
    /// Called on every method call (idle tracking).
    private let onCall: () -> Void
    private var slot: OpaquePointer?

    /// Publishes `interface` on `bus`. Every method and property it describes must have a route.
    init(bus: OpaquePointer, loop: EventLoop, interface: Interface, methods: [MethodRoute], properties: [PropertyRoute],
         pending: PendingCalls, queue: CallQueue, onCall: @escaping () -> Void) throws(BusError) {
        self.interface = interface
        self.loop = loop
        self.methods = Dictionary(uniqueKeysWithValues: methods.map { ($0.name, $0) })
        self.properties = Dictionary(uniqueKeysWithValues: properties.map { ($0.name, $0) })
        self.pending = pending
        self.queue = queue
        self.onCall = onCall
        for member in interface.members {
            switch member {
            case .method(let n, _, _) where self.methods[n] == nil,
                 .property(let n, _, _) where self.properties[n] == nil:
                preconditionFailure("\(interface.name).\(n) is described but has no handler")
            default: break
            }
        }
        try register(bus)
    }

    deinit { sd_bus_slot_unref(slot) }

    private func register(_ bus: OpaquePointer) throws(BusError) {
        // The C strings live until registration copies them.
        var owned: [UnsafeMutablePointer<CChar>] = []
        defer { owned.forEach { free($0) } }
        func c(_ s: String) -> UnsafePointer<CChar> {
            let p = strdup(s)!
            owned.append(p)
            return UnsafePointer(p)
        }
        let table: [pdx_member] = interface.members.map { member in
            switch member {
            case .method(let n, let ins, let outs):
                return pdx_member(kind: CChar(PDX_MEMBER_METHOD), name: c(n),
                                  signature: c(ins.map(\.signature).joined()), result: c(outs.map(\.signature).joined()),
                                  names: c((ins + outs).map(\.name).joined(separator: " ")), flags: 0)
            case .signal(let n, let values):
                return pdx_member(kind: CChar(PDX_MEMBER_SIGNAL), name: c(n),
                                  signature: c(values.map(\.signature).joined()), result: nil,
                                  names: c(values.map(\.name).joined(separator: " ")), flags: 0)
            case .property(let n, let signature, let change):
                let flags: UInt32 = switch change {
                case .emits: UInt32(PDX_PROPERTY_EMITS_CHANGE)
                case .const: UInt32(PDX_PROPERTY_CONST)
                case .none: 0
                }
                return pdx_member(kind: CChar(PDX_MEMBER_PROPERTY), name: c(n), signature: c(signature),
                                  result: nil, names: nil, flags: flags)
            }
        }
        let me = Unmanaged.passUnretained(self).toOpaque()
        let r = table.withUnsafeBufferPointer { members in
            pdx_bus_add_object(
                bus, &slot, interface.objectPath, interface.name, members.baseAddress, members.count,
                { m, userdata, _ in
                    Unmanaged<BusObject>.fromOpaque(userdata!).takeUnretainedValue().call(m!)
                },
                { _, _, _, property, reply, userdata, _ in
                    Unmanaged<BusObject>.fromOpaque(userdata!).takeUnretainedValue().get(String(cString: property!), reply!)
                },
                me)
        }
        try busCheck(r, "cannot publish \(interface.objectPath)")
    }

    private func call(_ m: OpaquePointer) -> Int32 {
        loop.preconditionInLoop()
        onCall()
        let member = String(cString: sd_bus_message_get_member(m))
        if let route = methods[member] {
            // Worked on in its sender's turn, once the loop has read what else waits.
            queue.arrive(m, member: member) { [pending] m in route.dispatch(m, pending) }
        } else {
            Replies.fail(m, name: "org.freedesktop.DBus.Error.UnknownMethod", message: "no method \(member)")
        }
        return 1
    }

    private func get(_ name: String, _ reply: OpaquePointer) -> Int32 {
        guard let route = properties[name] else { return -ENOENT }
        do {
            try route.get(MessageWriter(reply))
        } catch {
            return -EIO
        }
        return 1
    }
}
