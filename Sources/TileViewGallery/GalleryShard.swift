import TileViewCore

/// One of N shards of a gallery run (`--shard K/N`): the frames whose index i has i mod N = K, K counted from 0.
///
/// Every shard plans the whole walk (planning is cheap and reads only headers) and renders only its frames, so
/// the frames and JSON step records of shards 0/N to (N-1)/N together are exactly those of the unsharded run.
/// K counts from 0 like frame numbers and `--start`: `0/2` renders frames 0, 2, 4, ..., `1/2` frames 1, 3, 5, ...
public struct GalleryShard: Hashable, Sendable, CustomStringConvertible {
    /// K, in 0..<count.
    public let index: Int
    /// N, at least 1.
    public let count: Int

    /// The whole run: shard 0 of 1.
    public static let whole = GalleryShard(uncheckedIndex: 0, count: 1)

    /// Shard `index` of `count`; nil unless 0 <= index < count.
    public init?(index: Int, count: Int) {
        guard count >= 1, index >= 0, index < count else { return nil }
        self.init(uncheckedIndex: index, count: count)
    }

    private init(uncheckedIndex index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    /// Reads `K/N` (white space around the numbers is not allowed; K from 0).
    public init?(parsing text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2,
            parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            let k = Int(parts[0]), let n = Int(parts[1])
        else { return nil }
        self.init(index: k, count: n)
    }

    /// Whether this shard renders frame `index`.
    public func contains(frame index: Int) -> Bool { index % count == self.index }

    public var description: String { "\(index)/\(count)" }
}

extension GalleryShard {
    /// `--shard auto`: the shard a job runner gives this process through its environment (docs/design.md section 13).
    /// - Slurm job arrays: K = `SLURM_ARRAY_TASK_ID` - `SLURM_ARRAY_TASK_MIN`, N = `SLURM_ARRAY_TASK_COUNT`
    ///   (so `--array=1-8` and `--array=0-7` both give shards 0 to 7 of 8);
    /// - Kubernetes Indexed Jobs: K = `JOB_COMPLETION_INDEX`, N = `shards` (`--shards N`, the Job's
    ///   `completions`), which the environment does not carry.
    /// Slurm wins when both are present. The error says what is missing or wrong, in words for a usage error.
    public static func fromRunner(environment: [String: String], shards: Int?) -> Result<GalleryShard, RunnerError> {
        func number(_ name: String) -> Int? { environment[name].flatMap { Int($0) } }
        if environment["SLURM_ARRAY_TASK_ID"] != nil {
            guard let id = number("SLURM_ARRAY_TASK_ID"), let count = number("SLURM_ARRAY_TASK_COUNT") else {
                return .failure(
                    RunnerError(
                        "SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_ID and SLURM_ARRAY_TASK_COUNT are not both whole numbers"
                    ))
            }
            let first = number("SLURM_ARRAY_TASK_MIN") ?? 0
            if let shards, shards != count {
                return .failure(RunnerError("--shards \(shards) disagrees with SLURM_ARRAY_TASK_COUNT=\(count)"))
            }
            guard let shard = GalleryShard(index: id - first, count: count) else {
                return .failure(
                    RunnerError(
                        "the Slurm array task \(id) (first \(first), \(count) tasks) is not shard 0 to \(count - 1): use a contiguous --array range"
                    ))
            }
            return .success(shard)
        }
        if let text = environment["JOB_COMPLETION_INDEX"] {
            guard let index = Int(text) else {
                return .failure(RunnerError("JOB_COMPLETION_INDEX is '\(text)', not a whole number"))
            }
            guard let shards else {
                return .failure(
                    RunnerError("a Kubernetes Indexed Job needs --shards N (the Job's completions) with --shard auto"))
            }
            guard let shard = GalleryShard(index: index, count: shards) else {
                return .failure(
                    RunnerError("JOB_COMPLETION_INDEX=\(index) is not shard 0 to \(shards - 1) of --shards \(shards)"))
            }
            return .success(shard)
        }
        return .failure(
            RunnerError(
                "--shard auto needs a job runner: a Slurm array (SLURM_ARRAY_TASK_ID, SLURM_ARRAY_TASK_COUNT) or a Kubernetes Indexed Job (JOB_COMPLETION_INDEX, with --shards N); neither is set"
            ))
    }

    /// Why `--shard auto` found no shard.
    public struct RunnerError: Error, Hashable, Sendable, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }
}
