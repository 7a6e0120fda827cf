import CCurlShims
import PokedexLocks

/// The certificates TLS trusts, read once, on a thread of their own, from when the client is made.
/// The system's bundle is about 140 certificates; parsing it in the first handshake after a start
/// held the loop, and every bus call behind it, for 10–50 ms. A transfer now waits for them in its
/// caller's task, before it reaches the loop, and its TLS then takes the one store already read
/// (`pdx_easy_use_preloaded_ca`). Verification is unchanged.
final class TrustedCertificates: Sendable {
    private let state = Mutex<(ready: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    /// `file`: the certificates to trust instead of the system's.
    init(file: String?) {
        let me = Unmanaged.passRetained(self).toOpaque()
        let started = pdx_ca_preload(file, { context in
            guard let context else { return }
            Unmanaged<TrustedCertificates>.fromOpaque(context).takeRetainedValue().loaded()
        }, me)
        if started != 0 {
            // Not read ahead: curl reads them itself, in the handshake.
            Unmanaged<TrustedCertificates>.fromOpaque(me).release()
            loaded()
        }
    }

    private func loaded() {
        let waiters = state.withLock { s -> [CheckedContinuation<Void, Never>] in
            s.ready = true
            defer { s.waiters = [] }
            return s.waiters
        }
        for w in waiters { w.resume() }
    }

    /// Returns once the certificates are read (at once, after the first few milliseconds).
    func ready() async {
        guard !state.withLock({ $0.ready }) else { return }
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            let now = state.withLock { s -> Bool in
                if s.ready { return true }
                s.waiters.append(c)
                return false
            }
            if now { c.resume() }
        }
    }
}
