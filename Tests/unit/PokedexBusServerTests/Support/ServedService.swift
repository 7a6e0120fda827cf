import Foundation
import Glibc
import PokedexBusClient
@testable import PokedexBusServer
import PokedexCore
import PokedexEventLoop
import PokedexLocks
import PokedexTestKit

/// The daemon's parts wired as `pokedexd` wires them, in the test's process: a
/// ``PokedexService`` over the ``GatedAPI``, published by a ``PokedexBusServer`` on a private
/// bus, its loop on a thread of its own and on a ``ManualLoopClock``: its idle exit, grace
/// period and deadlines come when the test moves the clock, not a real second later. What it
/// tells the service manager is read from a socket of the test's (`NOTIFY_SOCKET`).
final class ServedService: @unchecked Sendable {
    // @unchecked: the parts are the service's own, each Sendable or bound to the loop.
    let bus: PrivateBus
    let clock = ManualLoopClock()
    let loop: EventLoop
    let api: GatedAPI
    /// Where a sync's steps run: the loop's thread, in slices, as in pokedexd.
    let syncExecutor: LoopTaskExecutor
    let service: PokedexService
    let server: PokedexBusServer
    let directory: String
    private let notifyFD: Int32
    private let ended = DispatchSemaphore(value: 0)
    private let code = Mutex<Int32?>(nil)
    /// Set once the loop's thread is done: nothing queued on the loop runs after.
    private let finished = Mutex(false)
    /// What the loop returned, once it ended.
    var exitCode: Int32? { code.withLock { $0 } }

    /// - Parameters:
    ///   - idleTimeout: as `--idle-timeout` (0: never).
    ///   - deadline: as `--timeout`, each call's.
    ///   - grace: what calls in flight get on SIGTERM.
    init(bus: PrivateBus, idleTimeout: Double = 60, deadline: Double = 30, grace: Double = 5,
         favorites: any FavoritesPersistence = MemoryFavoritesPersistence()) throws {
        self.bus = bus
        directory = temporaryDirectory()
        let socketPath = directory + "/notify"
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        notifyFD = fd
        let bound = UnixAddress(socketPath)!.withSockaddr { bind(fd, $0, $1) }
        guard bound == 0 else { throw TestFailure("cannot bind \(socketPath): errno \(errno)") }
        let loop = try EventLoop(clock: clock, notifySocket: socketPath)
        self.loop = loop
        api = GatedAPI(inLoop: { loop.inLoop })
        syncExecutor = try LoopTaskExecutor(loop: loop)
        var config = ServiceConfiguration(apiURL: TablePokeAPI.base, spriteHosts: [TablePokeAPI.spriteHost],
                                          cacheDirectory: directory + "/cache", dataDirectory: directory + "/data",
                                          requestDeadline: deadline, spriteURLTemplate: "https://\(TablePokeAPI.spriteHost)/{id}.png",
                                          prefetch: false)
        config.idleTimeout = idleTimeout
        config.notifications = false
        service = PokedexService(configuration: config, client: api,
                                 store: try FileCacheStore(directory: config.cacheDirectory, capacity: 1 << 26),
                                 favorites: try FavoritesBook(persistence: favorites), syncExecutor: syncExecutor)
        server = PokedexBusServer(loop: loop, service: service, idleTimeout: idleTimeout, shutdownGrace: grace, log: { _, _ in })
        let started = DispatchSemaphore(value: 0)
        let failure = Mutex<String?>(nil)
        PlainThread.start { [self] in
            do {
                try server.start()
            } catch {
                failure.withLock { $0 = "\(error)" }
                started.signal()
                return
            }
            service.start()
            started.signal()
            let exit = loop.run()
            code.withLock { $0 = exit }
            // As pokedexd's main does once its loop ended.
            service.beginShutdown()
            _ = service.finishShutdown(timeout: 3) {
                loop.runQueued()
                syncExecutor.runQueued()
            }
            server.close()
            finished.withLock { $0 = true }
            ended.signal()
        }
        started.wait()
        if let failure = failure.withLock({ $0 }) { throw TestFailure("the server did not start: \(failure)") }
        try eventually("the loop to run") { loop.isRunning }
    }

    deinit {
        if exitCode == nil && !loop.hasEnded {
            loop.exit()
            _ = ended.wait(timeout: .now() + 10)
        }
        close(notifyFD)
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Moves the loop's clock on by `seconds`, firing what falls due.
    func advance(_ seconds: Double) { clock.advance(by: seconds, on: loop) }

    /// Whether the loop has ended (the service exited). Waits up to `seconds` for it (real ones:
    /// an exit that is due happens at once; 0: only looks).
    func hasExited(within seconds: Double = 0) -> Bool {
        if loop.hasEnded && exitCode != nil { return true }
        guard ended.wait(timeout: .now() + seconds) == .success else { return false }
        ended.signal()  // for the next look
        return true
    }

    /// Runs `work` on the loop and returns what it gave; nil once the service has exited (its
    /// state is gone with its loop).
    @discardableResult
    func onLoop<T>(_ work: @escaping () -> T) -> T? {
        let result = UncheckedBox<T?>(nil)
        let done = DispatchSemaphore(value: 0)
        let job = UncheckedBox(work)
        loop.execute {
            result.value = job.value()
            done.signal()
        }
        while done.wait(timeout: .now() + 0.005) == .timedOut {
            // The loop's thread drains what was queued before it finished; nothing after.
            if finished.withLock({ $0 }) { return done.wait(timeout: .now()) == .success ? result.value : nil }
        }
        return result.value
    }

    /// Calls pending in the server now (0 once it exited).
    var pendingCalls: Int { onLoop { self.server.pending.count + self.server.queue.count } ?? 0 }

    /// Calls the server has taken from its queue: each one's deadline counts from then.
    var takenCalls: Int { onLoop { self.server.pending.count } ?? 0 }

    /// What the service told the service manager so far, one message each.
    func notifications() -> [String] {
        var messages: [String] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = recv(notifyFD, &buffer, buffer.count, 0)
            guard n > 0 else { break }
            messages.append(String(decoding: buffer[0..<n], as: UTF8.self))
        }
        return messages
    }

    /// Whether the service's name has an owner on the bus now.
    func ownsName() throws -> Bool {
        try PokedexClient(timeout: 5).nameHasOwner(Pokedex1.busName)
    }
}

/// A value handed between the test's thread and the loop's, one at a time (a semaphore orders them).
final class UncheckedBox<T>: @unchecked Sendable {
    var value: T
    init(_ value: T) { self.value = value }
}
