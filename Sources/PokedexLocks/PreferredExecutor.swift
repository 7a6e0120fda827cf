/// The executor a task tree prefers, for the unstructured tasks started on its behalf.
///
/// `Task {}` does not inherit an executor preference, while it does inherit task-locals: a
/// single flight's own task, started for a sync's fetch, asks ``current`` and is given the
/// sync's executor, so the fetch's steps run where the sync's do.
public enum PreferredExecutor {
    /// What ``prefer(_:_:)`` set for the current task; nil: none (the global pool).
    @TaskLocal public static var current: (any TaskExecutor)?

    /// Runs `body` preferring `executor`: it, its child tasks, and every task started for it
    /// that asks ``current``.
    public static func prefer<T: Sendable>(_ executor: any TaskExecutor, _ body: () async -> T) async -> T {
        await $current.withValue(executor) { await withTaskExecutorPreference(executor) { await body() } }
    }
}
