import PokedexNetwork

extension PokedexError {
    /// Converts any error thrown inside the core into a `PokedexError`.
    static func wrap(_ error: any Error, context: String) -> PokedexError {
        if let e = error as? PokedexError { return e }
        if let e = error as? FetchError { return e.asPokedexError(context: context) }
        if error is CancellationError { return .unavailable(ServiceMessages.format(ServiceMessages.cancelled, context)) }
        return .unavailable("\(context): \(error)")
    }

    static func wrapStorage(_ error: any Error, _ what: String) -> PokedexError {
        if case .storage(let m)? = error as? PokedexError { return .storage("\(what): \(m)") }
        return .storage("\(what): \(error)")
    }
}
