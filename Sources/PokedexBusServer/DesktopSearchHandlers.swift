import PokedexCore
import PokedexProtocol

/// One handler per member of GNOME Shell's `org.gnome.Shell.SearchProvider2` and KRunner's
/// `org.kde.krunner1`: each asks the service. Nothing here decides anything.
enum DesktopSearchHandlers {
    static func gnome(_ s: PokedexService) -> [MethodRoute] {
        [
            SearchProvider2.getInitialResultSet.route { terms in s.desktopResults(terms) },
            SearchProvider2.getSubsearchResultSet.route { a in s.desktopSubsearch(a.0, a.1) },
            SearchProvider2.getResultMetas.route(heavy: { $0.count > 16 }) { ids in s.desktopMetas(ids) },
            SearchProvider2.activateResult.route { a, caller in s.openResult(a.0, terms: a.1, caller: caller) },
            SearchProvider2.launchSearch.route { a, caller in s.launchSearch(a.0, caller: caller) },
        ]
    }

    static func krunner(_ s: PokedexService) -> [MethodRoute] {
        [
            KRunner1.actions.route { .now(s.krunnerActions()) },
            KRunner1.match.route { query in s.krunnerMatch(query) },
            KRunner1.run.route { a, caller in s.runDesktopAction(a.0, a.1, caller: caller) },
            KRunner1.config.route { .now(()) },
            KRunner1.teardown.route { .now(()) },
            KRunner1.setActivationToken.route { token, caller in s.setActivationToken(token, caller: caller ?? "") },
        ]
    }
}
