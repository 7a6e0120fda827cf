/// The jobs an executor has been given and not yet run, oldest first: what ``ThreadExecutor``
/// and the event loop's executor keep under their locks. Taking a job moves an index; the
/// taken ones are dropped once the run is taken or 1,024 of them have piled up, so a long run
/// neither shifts the array at every job nor grows without end.
public struct JobQueue {
    private var jobs: [UnownedJob] = []
    private var head = 0

    public init() {}

    /// Whether every job given has been taken.
    public var isEmpty: Bool { head == jobs.count }

    public mutating func append(_ job: UnownedJob) { jobs.append(job) }

    /// The oldest job not yet taken; nil when none is left.
    public mutating func popFirst() -> UnownedJob? {
        guard head < jobs.count else { return nil }
        let job = jobs[head]
        head += 1
        if head == jobs.count || head >= 1024 {  // the run taken: the array from its start again
            jobs.removeFirst(head)
            head = 0
        }
        return job
    }
}
